import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Modal } from './Modal';

export interface ConfirmDialogProps {
  title: ReactNode;
  message: ReactNode;
  confirmLabel: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  danger?: boolean;
  /** Shown above the buttons, e.g. why the action failed. */
  error?: ReactNode;
  testId?: string;
}

export function ConfirmDialog({ title, message, confirmLabel, onConfirm, onCancel, busy, danger, error, testId }: ConfirmDialogProps) {
  return (
    <Modal
      title={title}
      onClose={onCancel}
      busy={busy}
      testId={testId}
      footer={
        <>
          <button type="button" className="button" onClick={onCancel} disabled={busy} data-testid="confirm-cancel">
            <FormattedMessage id="common.cancel" />
          </button>
          <button
            type="button"
            className={danger ? 'button button-danger' : 'button button-primary'}
            onClick={onConfirm}
            disabled={busy}
            data-testid="confirm-ok"
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      <p className="confirm-message">{message}</p>
      {error}
    </Modal>
  );
}
