import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { useCurrentUser } from '../../app/session';
import { RecentReportViews } from './RecentReportViews';
import './dashboard.css';

/**
 * '/': the welcome message, the user info box and the recently visited report views.
 * Notifications and the document tabs of spec 1, section 2 come with later issues.
 */
export function DashboardPage() {
  const me = useCurrentUser();
  const intl = useIntl();
  const occupation = me.occupations.find((candidate) => candidate.id === me.occupationId);

  return (
    <div className="page" data-testid="dashboard">
      <h1 className="page-title" data-testid="welcome">
        <FormattedMessage id="dashboard.welcome" values={{ name: me.name }} />
      </h1>
      <section className="card user-info" aria-labelledby="user-info-title" data-testid="user-info">
        <h2 id="user-info-title" className="card-title">
          <FormattedMessage id="dashboard.userInfo.title" />
        </h2>
        <dl className="definition-list">
          <Row label={<FormattedMessage id="dashboard.userInfo.name" />} value={me.name} />
          <Row label={<FormattedMessage id="dashboard.userInfo.email" />} value={me.email} />
          <Row label={<FormattedMessage id="dashboard.userInfo.organization" />} value={me.organizationName ?? '–'} />
          <Row label={<FormattedMessage id="dashboard.userInfo.occupation" />} value={occupation?.name ?? '–'} />
          <Row
            label={<FormattedMessage id="dashboard.userInfo.authenticationType" />}
            value={intl.formatMessage({ id: `authType.${me.authenticationType}` })}
          />
        </dl>
        <div className="user-info-footer">
          <Link to="/account" className="button" data-testid="account-link">
            <FormattedMessage id="dashboard.userInfo.accountSettings" />
          </Link>
        </div>
      </section>
      <RecentReportViews />
    </div>
  );
}

function Row({ label, value }: { label: ReactNode; value: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}
