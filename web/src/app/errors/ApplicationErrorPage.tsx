import { FormattedMessage } from 'react-intl';
import { isApiError } from '../../api';
import { errorMessageKey } from '../../i18n/keys';
import { ErrorPage } from './ErrorPage';

/**
 * "Application error" (500) after a crash. It may render outside the router (the top-level error
 * boundary), so it uses plain links and a full reload to recover.
 */
export function ApplicationErrorPage({ error }: { error?: unknown }) {
  return (
    <div className="standalone-page">
      <ErrorPage
        status={500}
        testId="application-error-page"
        title={<FormattedMessage id="errors.application.title" />}
        text={<FormattedMessage id="errors.application.text" />}
        detail={
          isApiError(error) ? (
            <p className="muted" data-error-code={error.code}>
              <FormattedMessage id={errorMessageKey(error.code)} />
            </p>
          ) : null
        }
        actions={
          <>
            <button type="button" className="button" onClick={() => window.location.reload()} data-testid="reload-button">
              <FormattedMessage id="errors.reload" />
            </button>
            <a href="/" className="button button-primary" data-testid="home-button">
              <FormattedMessage id="errors.home" />
            </a>
          </>
        }
      />
    </div>
  );
}
