import { APPROVAL_ACTIONS_NEEDING_REASON, type ApprovalAction, approvalCommentSchema, approvalReasonSchema, LIMITS } from '@eelarve/shared';
import { useId, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Form, ModalFormFooter, serverFieldErrors, TextAreaField, useFieldErrors, validate } from '../../../components/form';
import { Modal } from '../../../components/Modal';
import { type ApprovalActionInput, useApprovalAction } from '../api/approval';

/**
 * One step of the approval route, confirmed in a dialog: send back and reopen ask for a reason
 * (required), submit and approve for an optional comment. A refusal that is not about the field
 * (e.g. APPROVAL_ACTION_NOT_ALLOWED) is shown translated above it.
 */
export function ApprovalDialog({ budgetId, action, onClose }: { budgetId: string; action: ApprovalAction; onClose: () => void }) {
  const formId = useId();
  const needsReason = APPROVAL_ACTIONS_NEEDING_REASON.includes(action);
  const field = needsReason ? 'reason' : 'comment';
  const [text, setText] = useState('');
  const { errors, setErrors, clear } = useFieldErrors();
  const [refusal, setRefusal] = useState<unknown>(null);
  const take = useApprovalAction(budgetId, {
    onSuccess: onClose,
    onError: (error) => {
      const fieldErrors = serverFieldErrors(error);
      setErrors(fieldErrors);
      setRefusal(Object.keys(fieldErrors).length > 0 ? null : error);
    },
  });

  const submit = () => {
    setRefusal(null);
    const input = actionInput(action, text);
    const { errors: found } = validate(needsReason ? approvalReasonSchema : approvalCommentSchema, { [field]: text });
    setErrors(found);
    if (Object.keys(found).length === 0) take.mutate(input);
  };

  return (
    <Modal
      title={<FormattedMessage id={`budgets.approval.action.${action}`} />}
      onClose={onClose}
      busy={take.isPending}
      testId="approval-dialog"
      footer={<ModalFormFooter formId={formId} onCancel={onClose} busy={take.isPending} testIdPrefix="approval-dialog" />}
    >
      {refusal ? <ErrorAlert error={refusal} testId="approval-dialog-error" /> : null}
      <Form id={formId} onSubmit={submit}>
        <TextAreaField
          labelId={needsReason ? 'budgets.approval.field.reason' : 'budgets.approval.field.comment'}
          value={text}
          onChange={(value) => {
            setText(value);
            clear(field);
          }}
          max={LIMITS.textArea}
          error={errors[field]}
          testId="approval-dialog-text"
        />
      </Form>
    </Modal>
  );
}

function actionInput(action: ApprovalAction, text: string): ApprovalActionInput {
  if (action === 'SEND_BACK' || action === 'REOPEN') return { action, reason: text };
  return { action, comment: text };
}
