import { FormattedMessage } from 'react-intl';
import { errorMessageKey, type MessageValues, validationMessageKey, validationValues } from '../i18n/keys';

/**
 * A field's message: a shared validation key (`validation.*`) from the client's check, or a server
 * error (`error.<CODE>`, as the server puts into a field issue) about this field.
 */
export function FieldError({ message, values, id }: { message?: string; values?: MessageValues; id?: string }) {
  if (!message) return null;
  if (message.startsWith('error.')) {
    const code = message.slice('error.'.length);
    return (
      <div className="field-error" id={id} data-testid="field-error" data-message={message} data-error-code={code}>
        <FormattedMessage id={errorMessageKey(code)} />
      </div>
    );
  }
  return (
    <div className="field-error" id={id} data-testid="field-error" data-message={message}>
      <FormattedMessage id={validationMessageKey(message)} values={values ?? validationValues()} />
    </div>
  );
}

/** The message of a server field issue for `field` (`path` may be `password` or `body.password`). */
export function fieldIssueMessage(issues: { path: string; message: string }[], field: string): string | undefined {
  return issues.find((issue) => issue.path === field || issue.path.endsWith(`.${field}`))?.message;
}
