import { useEffect } from 'react';
import { FormattedMessage } from 'react-intl';
import { useSearchParams } from 'react-router';
import { Alert } from '../../components/Alert';
import { useCurrentUser } from '../../app/session';
import { ElectronicIdSection } from './ElectronicIdSection';
import { EmailSection } from './EmailSection';
import { LanguageSection } from './LanguageSection';
import { MfaSection } from './MfaSection';
import { PasswordSection } from './PasswordSection';
import './account.css';

/**
 * /account (spec 1, section 2 "Account settings", reachable from the dashboard's user box):
 * e-mail, password, language, MFA and the electronic ID.
 */
export function AccountPage() {
  const me = useCurrentUser();
  const [params] = useSearchParams();
  const electronicIdBound = params.get('eidBound') === 'true';
  const electronicIdError = params.get('eidError') === 'true';

  useEffect(() => {
    window.scrollTo(0, 0);
  }, []);

  return (
    <div className="page account-page" data-testid="account-page">
      <div className="account-heading">
        <h1 className="page-title">
          <FormattedMessage id="account.title" />
        </h1>
        <p className="muted">
          <FormattedMessage id="account.subtitle" values={{ name: me.name, email: me.email }} />
        </p>
      </div>

      {electronicIdBound ? (
        <Alert kind="success" testId="account-eid-bound">
          <FormattedMessage id="account.electronicId.bound" />
        </Alert>
      ) : null}
      {electronicIdError ? (
        <Alert kind="error" testId="account-eid-error">
          <FormattedMessage id="account.electronicId.bindFailed" />
        </Alert>
      ) : null}

      <div className="account-grid">
        <div className="account-column">
          <EmailSection />
          <PasswordSection />
        </div>
        <div className="account-column">
          <LanguageSection />
          <MfaSection />
          <ElectronicIdSection />
        </div>
      </div>
    </div>
  );
}
