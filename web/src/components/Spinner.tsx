import { FormattedMessage } from 'react-intl';

export function Spinner({ fullPage = false }: { fullPage?: boolean }) {
  return (
    <div className={fullPage ? 'spinner-page' : 'spinner-inline'} role="status" data-testid="loading">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">
        <FormattedMessage id="app.loading" />
      </span>
    </div>
  );
}
