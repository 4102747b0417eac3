import { FormattedMessage } from 'react-intl';
import { errorMessageKey, type MessageValues, validationMessageKey, validationValues } from '../../i18n/keys';
import type { FieldMessage } from './errors';

/**
 * A field's message under its control: a shared validation key (`validation.*`) from the client's
 * check, or a server error (`error.<CODE>`) about this field. `fallbackValues` fill the wording when
 * the message brings none (a field's own length limit).
 */
export function FieldError({
  error,
  fallbackValues,
  id,
  testId = 'field-error',
}: {
  error?: FieldMessage;
  fallbackValues?: MessageValues;
  id?: string;
  testId?: string;
}) {
  if (!error?.message) return null;
  const { message } = error;
  if (message.startsWith('error.')) {
    const code = message.slice('error.'.length);
    return (
      <div className="field-error" id={id} data-testid={testId} data-message={message} data-error-code={code}>
        <FormattedMessage id={errorMessageKey(code)} />
      </div>
    );
  }
  const values = { ...validationValues(), ...fallbackValues, ...error.values };
  return (
    <div className="field-error" id={id} data-testid={testId} data-message={message}>
      <FormattedMessage id={validationMessageKey(message)} values={values} />
    </div>
  );
}
