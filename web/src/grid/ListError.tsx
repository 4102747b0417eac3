import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { ErrorAlert } from '../components/ErrorAlert';
import './grid.css';

/**
 * The one error state of a list that failed to load: what went wrong and a retry button. It takes
 * the place of the list, so no "no data" overlay claims the list is empty at the same time.
 */
export function ListError({ error, title, onRetry, testId }: { error: unknown; title: ReactNode; onRetry: () => void; testId?: string }) {
  return (
    <div className="list-error" data-testid={testId ?? 'list-error'}>
      <ErrorAlert error={error} title={title} />
      <button type="button" className="button" onClick={onRetry} data-testid="list-retry">
        <FormattedMessage id="grid.retry" />
      </button>
    </div>
  );
}
