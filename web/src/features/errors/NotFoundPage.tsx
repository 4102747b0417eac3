import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router';
import { ErrorPage } from './ErrorPage';

export function NotFoundPage() {
  return (
    <ErrorPage
      status={404}
      testId="not-found-page"
      title={<FormattedMessage id="errors.notFound.title" />}
      text={<FormattedMessage id="errors.notFound.text" />}
      actions={
        <Link to="/" className="button button-primary" data-testid="home-button">
          <FormattedMessage id="errors.home" />
        </Link>
      }
    />
  );
}
