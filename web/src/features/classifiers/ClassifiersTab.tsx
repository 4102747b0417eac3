import type { Classifier } from '@eelarve/shared';
import { hasAnyPrivilege } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useCurrentUser } from '../../app/session';
import { Alert } from '../../components/Alert';
import { ConfirmActionDialog } from '../../components/ConfirmAction';
import { Spinner } from '../../components/Spinner';
import { ListError } from '../../grid/ListError';
import { useDeleteClassifier, useRefreshClassifiers } from './api/mutations';
import { classifierListQuery } from './api/queries';
import { ClassifierMeta } from './ClassifierMeta';
import { ClassifierModal } from './ClassifierModal';
import { ClassifierTree } from './ClassifierTree';
import { ItemsSection } from './ItemsSection';
import type { Notice } from './notice';
import { classifierTree } from './tree';
import './classifiers.css';

/** /document/{documentId}/classifiers/{classifierId?} (spec 2, section 2: classifiers tab). */
export function ClassifiersTab() {
  const { documentId = '', classifierId } = useParams();
  const me = useCurrentUser();
  const canEdit = hasAnyPrivilege(me.privileges, 'CLASSIFICATION_ADMIN');
  const classifiers = useQuery(classifierListQuery(documentId));

  if (classifiers.isPending) return <Spinner />;
  if (classifiers.isError)
    return (
      <section className="classifiers-tab" data-testid="classifiers-tab">
        <ListError
          error={classifiers.error}
          title={<FormattedMessage id="classifiers.loadFailed" />}
          onRetry={() => void classifiers.refetch()}
          testId="classifiers-load-error"
        />
      </section>
    );
  const list = classifiers.data;
  const selected = list.find((classifier) => classifier.id === classifierId);
  if (!selected) {
    const first = classifierTree(list).find((entry) => entry.classifier.groupingId === null)?.classifier;
    if (first) return <Navigate to={`/document/${documentId}/classifiers/${first.id}`} replace />;
  }
  return <ClassifiersScreen documentId={documentId} classifiers={list} selected={selected ?? null} canEdit={canEdit} />;
}

function ClassifiersScreen({
  documentId,
  classifiers,
  selected,
  canEdit,
}: {
  documentId: string;
  classifiers: Classifier[];
  selected: Classifier | null;
  canEdit: boolean;
}) {
  const navigate = useNavigate();
  const [modal, setModal] = useState<{ classifier: Classifier | null } | null>(null);
  const [success, setSuccess] = useState<Notice | null>(null);
  const refresh = useRefreshClassifiers();
  const remove = useDeleteClassifier(() => navigate(`/document/${documentId}/classifiers`, { replace: true }));

  return (
    <section className="classifiers-tab" data-testid="classifiers-tab">
      <div className="classifiers-top">
        <ClassifierTree
          documentId={documentId}
          classifiers={classifiers}
          selectedId={selected?.id ?? null}
          canEdit={canEdit}
          onAdd={() => setModal({ classifier: null })}
        />
        {selected ? (
          <ClassifierMeta
            classifier={selected}
            classifiers={classifiers}
            canEdit={canEdit}
            onEdit={() => setModal({ classifier: selected })}
            onDelete={() => remove.ask(selected)}
          />
        ) : (
          <div className="classifier-meta muted" data-testid="classifiers-empty">
            <FormattedMessage id="classifiers.empty" />
          </div>
        )}
      </div>
      {success ? (
        <div className="classifiers-success" data-testid={success.failed ? 'classifiers-failure' : 'classifiers-success'} data-message={success.key}>
          <Alert kind={success.failed ? 'error' : 'success'}>
            <FormattedMessage id={success.key} values={success.values} />
          </Alert>
          <button type="button" className="button button-small" onClick={() => setSuccess(null)} data-testid="classifiers-success-dismiss">
            <FormattedMessage id="classifiers.success.dismiss" />
          </button>
        </div>
      ) : null}
      {selected ? (
        <ItemsSection
          key={`items-${selected.id}`}
          documentId={documentId}
          classifier={selected}
          classifiers={classifiers}
          canEdit={canEdit}
          onSuccess={setSuccess}
        />
      ) : null}

      {modal ? (
        <ClassifierModal
          key={`form-${modal.classifier?.id ?? 'new'}`}
          documentId={documentId}
          classifier={modal.classifier}
          classifiers={classifiers}
          onClose={() => setModal(null)}
          onSaved={async (id) => {
            await refresh();
            navigate(`/document/${documentId}/classifiers/${id}`);
          }}
        />
      ) : null}
      <ConfirmActionDialog
        action={remove}
        testId="classifier-delete-dialog"
        title={<FormattedMessage id="classifiers.delete.title" />}
        message={(classifier) => <FormattedMessage id="classifiers.delete.question" values={{ name: classifier.name }} />}
        confirmLabel={<FormattedMessage id="common.delete" />}
        failedTitle={<FormattedMessage id="classifiers.delete.failed" />}
        errorTestId="classifier-delete-error"
      />
    </section>
  );
}
