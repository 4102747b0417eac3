import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { errorCodeOf } from '../api';
import { errorMessageKey } from '../i18n/keys';
import { Alert } from './Alert';

/** An error alert that shows the translated server error code of `error`. */
export function ErrorAlert({ error, title, testId }: { error: unknown; title?: ReactNode; testId?: string }) {
  const code = errorCodeOf(error);
  return (
    <Alert kind="error" title={title} testId={testId}>
      <span data-error-code={code}>
        <FormattedMessage id={errorMessageKey(code)} />
      </span>
    </Alert>
  );
}
