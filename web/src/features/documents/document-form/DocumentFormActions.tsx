import type { Document } from '@eelarve/shared';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useToasts } from '../../../components/Toasts';
import { useDeleteDocument } from '../api/mutations';

/**
 * The form's buttons: cancel (new document) or delete after a confirmation (existing one), and save.
 * `deleteRefusal` greys delete out with the reason (a status that locks the document's data);
 * `saveDisabled`: nothing that may change has changed.
 */
export function DocumentFormActions({
  document,
  busy,
  saveDisabled = false,
  deleteRefusal,
}: {
  document: Document | null;
  busy: boolean;
  saveDisabled?: boolean;
  deleteRefusal?: string;
}) {
  const navigate = useNavigate();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { showFailure } = useToasts();
  const remove = useDeleteDocument(document?.id ?? '', {
    onDeleted: () => {
      setConfirmDelete(false);
      navigate('/', { replace: true });
    },
    onError: (error) => {
      setConfirmDelete(false);
      showFailure('documents.documentDeleteErrorMessage', error);
    },
  });
  const disabled = busy || remove.isPending;
  return (
    <>
      <div className="form-actions document-form-actions">
        {document ? (
          <span title={deleteRefusal} data-testid="document-delete-tooltip">
            <button
              type="button"
              className="button button-danger"
              onClick={() => setConfirmDelete(true)}
              disabled={disabled || deleteRefusal !== undefined}
              data-testid="document-delete"
            >
              <FormattedMessage id="common.delete" />
            </button>
          </span>
        ) : (
          <button type="button" className="button" onClick={() => navigate(-1)} disabled={disabled} data-testid="document-cancel">
            <FormattedMessage id="common.cancel" />
          </button>
        )}
        <button type="submit" className="button button-primary" disabled={disabled || saveDisabled} data-testid="document-save">
          <FormattedMessage id={document ? 'common.save' : 'documents.create.submit'} />
        </button>
      </div>
      {confirmDelete && document ? (
        <ConfirmDialog
          testId="document-delete-dialog"
          danger
          title={<FormattedMessage id="documents.delete.title" />}
          message={<FormattedMessage id="documents.delete.question" values={{ name: document.name }} />}
          confirmLabel={<FormattedMessage id="common.delete" />}
          busy={remove.isPending}
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() => remove.mutate()}
        />
      ) : null}
    </>
  );
}
