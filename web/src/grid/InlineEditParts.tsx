import { FormattedMessage, useIntl } from 'react-intl';
import { Alert } from '../components/Alert';
import { IconAction } from '../components/IconAction';
import { CheckIcon, CopyIcon, DashIcon, EditIcon, PlusIcon, TrashIcon } from '../components/icons';
import { errorMessageKey, validationMessageKey, validationValues } from '../i18n/keys';
import type { MessageKey } from '../i18n/messages';
import { canSave, type InlineEditSession } from './inline-edit';

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

/**
 * Edit, duplicate and delete of a viewed row of an inline-edited table: all disabled, saying why,
 * while another row is edited; `deleteBlockedTitle` disables delete with its own reason.
 * Test ids: `${testIdPrefix}-edit`, `-duplicate`, `-delete`.
 */
export function InlineRowButtons({
  busy,
  labels,
  testIdPrefix,
  onEdit,
  onDuplicate,
  onDelete,
  deleteBlockedTitle,
}: {
  busy: boolean;
  labels: { edit: MessageKey; duplicate: MessageKey; delete: MessageKey; busy: MessageKey };
  testIdPrefix: string;
  onEdit: () => void;
  onDuplicate: () => void;
  onDelete: () => void;
  deleteBlockedTitle?: string;
}) {
  const intl = useIntl();
  const busyTitle = busy ? intl.formatMessage({ id: labels.busy }) : undefined;
  return (
    <>
      <IconAction label={intl.formatMessage({ id: labels.edit })} title={busyTitle} disabled={busy} onClick={onEdit} testId={`${testIdPrefix}-edit`}>
        <EditIcon />
      </IconAction>
      <IconAction
        label={intl.formatMessage({ id: labels.duplicate })}
        title={busyTitle}
        disabled={busy}
        onClick={onDuplicate}
        testId={`${testIdPrefix}-duplicate`}
      >
        <CopyIcon />
      </IconAction>
      <IconAction
        label={intl.formatMessage({ id: labels.delete })}
        title={deleteBlockedTitle ?? busyTitle}
        disabled={busy || deleteBlockedTitle !== undefined}
        danger
        onClick={onDelete}
        testId={`${testIdPrefix}-delete`}
      >
        <TrashIcon />
      </IconAction>
    </>
  );
}

/** Save (only once the row changed) and cancel of the row being edited. Test ids: `${testIdPrefix}-save`, `-cancel`. */
export function InlineSaveCancelButtons({
  session,
  labels,
  testIdPrefix,
  onSave,
  onCancel,
}: {
  session: InlineEditSession<unknown>;
  labels: { save: MessageKey; cancel: MessageKey };
  testIdPrefix: string;
  onSave: () => void;
  onCancel: () => void;
}) {
  const intl = useIntl();
  return (
    <span className="row-actions">
      <IconAction label={intl.formatMessage({ id: labels.save })} disabled={!canSave(session)} onClick={onSave} testId={`${testIdPrefix}-save`}>
        <CheckIcon />
      </IconAction>
      <IconAction label={intl.formatMessage({ id: labels.cancel })} disabled={session.saving} onClick={onCancel} testId={`${testIdPrefix}-cancel`}>
        <DashIcon />
      </IconAction>
    </span>
  );
}
