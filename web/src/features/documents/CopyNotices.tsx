import type { Document } from '@eelarve/shared';
import { FormattedMessage, useIntl } from 'react-intl';
import { Alert } from '../../components/Alert';
import { CloseIcon } from '../../components/Modal';
import { Spinner } from '../../components/Spinner';
import { dismissCopyTask, useCopyTask } from './copy-task';

/** The sider's note about the latest document copy: running, then its outcome until dismissed (spec 2, section 4). */
export function CopyTaskNotice() {
  const intl = useIntl();
  const copyTask = useCopyTask();
  if (copyTask.status === 'idle') return null;
  if (copyTask.status === 'running') {
    return (
      <div className="document-sider-note" data-testid="document-copy-running">
        <Spinner />
        <FormattedMessage id="documents.copy.running" />
      </div>
    );
  }
  const succeeded = copyTask.status === 'done' && copyTask.task.status === 'SUCCESS';
  return (
    <div className="document-sider-note-alert">
      <Alert kind={succeeded ? 'success' : 'error'} testId="document-copy-result">
        <span data-status={copyTask.status === 'done' ? copyTask.task.status : 'TIMEOUT'}>
          <FormattedMessage id={succeeded ? 'documents.copy.success' : 'documents.copy.failed'} />
        </span>
        <button
          type="button"
          className="icon-button"
          onClick={dismissCopyTask}
          aria-label={intl.formatMessage({ id: 'common.dismiss' })}
          data-testid="document-copy-dismiss"
        >
          <CloseIcon />
        </button>
      </Alert>
    </div>
  );
}

/** A copy whose copying is still running or was interrupted (then parts are missing: the settings tab says what to do). */
export function CopyStatusMarker({ status }: { status: Document['copyStatus'] }) {
  const intl = useIntl();
  if (!status) return null;
  const incomplete = status === 'INCOMPLETE';
  return (
    <span
      className={incomplete ? 'document-copy-status document-copy-incomplete' : 'document-copy-status muted'}
      title={incomplete ? intl.formatMessage({ id: 'documents.copy.incompleteMessage' }) : undefined}
      data-testid="document-copy-status"
      data-status={status}
    >
      <FormattedMessage id={incomplete ? 'documents.copy.incomplete' : 'documents.copy.copying'} />
    </span>
  );
}
