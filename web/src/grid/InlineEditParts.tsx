import { FormattedMessage, useIntl } from 'react-intl';
import { Alert } from '../components/Alert';
import { PlusIcon } from '../components/icons';
import { errorMessageKey, validationMessageKey, validationValues } from '../i18n/keys';
import type { MessageKey } from '../i18n/messages';

/** The add button of an inline-edited table: disabled while a row is edited (saying so) or the rows load. */
export function InlineAddButton({
  busy,
  loading,
  busyTitleId,
  labelId,
  onClick,
  testId,
}: {
  /** A row is being edited. */
  busy: boolean;
  loading: boolean;
  busyTitleId: MessageKey;
  labelId: MessageKey;
  onClick: () => void;
  testId: string;
}) {
  const intl = useIntl();
  return (
    <button
      type="button"
      className="button button-primary"
      onClick={onClick}
      disabled={busy || loading}
      title={busy ? intl.formatMessage({ id: busyTitleId }) : undefined}
      data-testid={testId}
    >
      <PlusIcon />
      <FormattedMessage id={labelId} />
    </button>
  );
}

/**
 * The refused fields of the edited row, one line each (message `messageId` with the field's label
 * and the problem): a `validation.*` key, or a server error code.
 */
export function InlineEditInvalidAlert<F extends string>({
  invalid,
  labels,
  messageId,
  validationOnly = false,
  testId,
}: {
  invalid: Partial<Record<F, string>>;
  /** The fields' labels: catalog keys, or a function giving the label text (e.g. of data-named columns). */
  labels: Readonly<Record<F, MessageKey>> | ((field: F) => string);
  messageId: MessageKey;
  /** Only the validation messages are listed (the server's codes are shown elsewhere). */
  validationOnly?: boolean;
  testId: string;
}) {
  const intl = useIntl();
  const entries = (Object.entries(invalid) as Array<[F, string | undefined]>).filter(
    (entry): entry is [F, string] => entry[1] !== undefined && (!validationOnly || entry[1].startsWith('validation.')),
  );
  if (entries.length === 0) return null;
  return (
    <Alert kind="error" testId={testId}>
      {entries.map(([field, message]) => (
        <div key={field} data-message={message}>
          <FormattedMessage
            id={messageId}
            values={{
              field: typeof labels === 'function' ? labels(field) : intl.formatMessage({ id: labels[field] }),
              problem: message.startsWith('validation.')
                ? intl.formatMessage({ id: validationMessageKey(message) }, validationValues())
                : intl.formatMessage({ id: errorMessageKey(message) }),
            }}
          />
        </div>
      ))}
    </Alert>
  );
}
