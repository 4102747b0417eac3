import { FormattedMessage } from 'react-intl';

/**
 * The footer of a modal with a form: cancel closes the modal, save submits the form `formId`.
 * The buttons' test ids are `<testIdPrefix>-cancel` and `<testIdPrefix>-save`.
 */
export function ModalFormFooter({
  formId,
  onCancel,
  busy,
  saveDisabled = false,
  testIdPrefix,
}: {
  formId: string;
  onCancel: () => void;
  busy: boolean;
  /** Save is also disabled, e.g. while the form's choices load. */
  saveDisabled?: boolean;
  testIdPrefix: string;
}) {
  return (
    <>
      <button type="button" className="button" onClick={onCancel} disabled={busy} data-testid={`${testIdPrefix}-cancel`}>
        <FormattedMessage id="common.cancel" />
      </button>
      <button
        type="submit"
        form={formId}
        className="button button-primary"
        disabled={busy || saveDisabled}
        data-testid={`${testIdPrefix}-save`}
      >
        <FormattedMessage id="common.save" />
      </button>
    </>
  );
}
