import { FormattedMessage } from 'react-intl';
import { FieldError } from '../../components/FieldError';
import { errorMessageKey } from '../../i18n/keys';

/** A field message: a shared validation key, or a server error code's message. */
export function FieldMessage({ message }: { message?: string }) {
  if (!message) return null;
  if (message.startsWith('error.')) {
    return (
      <div className="field-error" data-testid="field-error" data-message={message}>
        <FormattedMessage id={errorMessageKey(message.slice('error.'.length))} />
      </div>
    );
  }
  return <FieldError message={message} />;
}
