import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router';
import { ErrorPage } from './ErrorPage';

export function ForbiddenPage() {
  return (
    <ErrorPage
      status={403}
      testId="forbidden-page"
      title={<FormattedMessage id="errors.forbidden.title" />}
      text={<FormattedMessage id="errors.forbidden.text" />}
      actions={
        <Link to="/" className="button button-primary" data-testid="home-button">
          <FormattedMessage id="errors.home" />
        </Link>
      }
    />
  );
}
