import { FormattedMessage } from 'react-intl';
import { type MessageValues, validationMessageKey, validationValues } from '../i18n/keys';

/** A field's validation message; `message` is a shared key such as `validation.required`. */
export function FieldError({ message, values, id }: { message?: string; values?: MessageValues; id?: string }) {
  if (!message) return null;
  return (
    <div className="field-error" id={id} data-testid="field-error" data-message={message}>
      <FormattedMessage id={validationMessageKey(message)} values={values ?? validationValues()} />
    </div>
  );
}
