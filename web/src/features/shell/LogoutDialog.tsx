import { FormattedMessage } from 'react-intl';
import { Modal } from '../../components/Modal';

/** With several active sessions, logout asks which ones to end (spec 1, section 2). */
export function LogoutDialog({
  count,
  busy,
  onCancel,
  onLogout,
}: {
  count: number;
  busy: boolean;
  onCancel: () => void;
  onLogout: (allSessions: boolean) => void;
}) {
  return (
    <Modal
      title={<FormattedMessage id="logout.title" />}
      onClose={onCancel}
      busy={busy}
      testId="logout-dialog"
      footer={
        <>
          <button type="button" className="button" onClick={onCancel} disabled={busy}>
            <FormattedMessage id="common.cancel" />
          </button>
          <button type="button" className="button" onClick={() => onLogout(false)} disabled={busy} data-testid="logout-current">
            <FormattedMessage id="logout.current" />
          </button>
          <button type="button" className="button button-primary" onClick={() => onLogout(true)} disabled={busy} data-testid="logout-all">
            <FormattedMessage id="logout.all" />
          </button>
        </>
      }
    >
      <p className="confirm-message">
        <FormattedMessage id="logout.question" values={{ count }} />
      </p>
    </Modal>
  );
}
