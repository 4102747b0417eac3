import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router';

/**
 * A document address that leads nowhere (a bad id, a deleted document): said plainly, with the way
 * back, instead of a silent redirect that leaves the user wondering where the link went.
 */
export function DocumentNotFound() {
  return (
    <section className="error-page" role="alert" data-testid="document-not-found">
      <div className="error-status" aria-hidden="true">
        404
      </div>
      <h1>
        <FormattedMessage id="documents.notFound.title" />
      </h1>
      <p className="muted">
        <FormattedMessage id="documents.notFound.text" />
      </p>
      <div className="error-actions">
        <Link to="/" className="button button-primary" data-testid="document-not-found-home">
          <FormattedMessage id="documents.notFound.home" />
        </Link>
      </div>
    </section>
  );
}
