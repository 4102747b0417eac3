import { useQuery } from '@tanstack/react-query';
import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router';
import { useCurrentUser } from '../../app/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Spinner } from '../../components/Spinner';
import { DEFAULT_DATE_FORMAT, formatDate } from '../../i18n/format';
import { recentReportViewsQuery, reportPath } from './api';

/** The dashboard's recently visited report views (spec 1, section 2): at most 10 rows, each back to its report. */
export function RecentReportViews() {
  const me = useCurrentUser();
  const views = useQuery(recentReportViewsQuery());
  const dateTimeFormat = `${me.organizationLocaleSettings?.dateFormat ?? DEFAULT_DATE_FORMAT} HH:mm`;

  return (
    <section className="card recent-reports" aria-labelledby="recent-reports-title" data-testid="recent-reports">
      <h2 id="recent-reports-title" className="card-title">
        <FormattedMessage id="dashboard.recentReports.title" />
      </h2>
      {views.isPending ? (
        <Spinner />
      ) : views.isError ? (
        <ErrorAlert error={views.error} title={<FormattedMessage id="dashboard.recentReports.loadFailed" />} testId="recent-reports-error" />
      ) : views.data.length === 0 ? (
        <p className="muted" data-testid="recent-reports-empty">
          <FormattedMessage id="dashboard.recentReports.empty" />
        </p>
      ) : (
        <table className="recent-reports-table" data-testid="recent-reports-table">
          <thead>
            <tr>
              <th scope="col">
                <FormattedMessage id="dashboard.recentReports.budget" />
              </th>
              <th scope="col">
                <FormattedMessage id="dashboard.recentReports.document" />
              </th>
              <th scope="col">
                <FormattedMessage id="dashboard.recentReports.visitedAt" />
              </th>
            </tr>
          </thead>
          <tbody>
            {views.data.map((view) => (
              <tr key={view.budgetId} data-testid="recent-report" data-budget-id={view.budgetId}>
                <td>
                  <Link to={reportPath(view)} data-testid="recent-report-link">
                    {view.budgetName}
                  </Link>
                </td>
                <td>{view.documentName}</td>
                <td>
                  <time dateTime={view.visitedAt}>{formatDate(view.visitedAt, dateTimeFormat)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
