import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router';

/** The way back to the login page from the other public pages. */
export function BackToLogin() {
  return (
    <div className="login-links">
      <Link to="/login" data-testid="back-to-login">
        <FormattedMessage id="auth.backToLogin" />
      </Link>
    </div>
  );
}
