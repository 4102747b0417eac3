import type { Classifier } from '@eelarve/shared';
import { useMemo, useState, type DragEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { StarIcon } from '../../components/icons';
import { useScrollIntoView } from '../../components/useScrollIntoView';
import { useReorderClassifiers } from './api/mutations';
import { classifierTree } from './tree';

const classifierItemSelector = (id: string) => `[data-testid="classifier-tree-item"][data-id="${CSS.escape(id)}"]`;

/** The document's classifiers as a tree; siblings are reordered by dragging (spec 2, section 2). */
export function ClassifierTree({
  documentId,
  classifiers,
  selectedId,
  canEdit,
  onAdd,
}: {
  documentId: string;
  classifiers: Classifier[];
  selectedId: string | null;
  canEdit: boolean;
  onAdd: () => void;
}) {
  const intl = useIntl();
  const navigate = useNavigate();
  const [order, setOrder] = useState<string[] | null>(null);
  const [dragged, setDragged] = useState<string | null>(null);
  const tree = useMemo(() => {
    const entries = classifierTree(classifiers);
    if (!order) return entries;
    const rank = new Map(order.map((id, index) => [id, index]));
    return classifierTree(classifiers.map((classifier) => ({ ...classifier, displayOrder: rank.get(classifier.id) ?? classifier.displayOrder })));
  }, [classifiers, order]);

  // The selected classifier is scrolled into view, retried every 300 ms until the tree shows it (spec 2, section 9).
  useScrollIntoView(selectedId, classifierItemSelector);

  const reorder = useReorderClassifiers(documentId, () => setOrder(null));

  const onDrop = (event: DragEvent, targetId: string) => {
    event.preventDefault();
    const source = classifiers.find((classifier) => classifier.id === dragged);
    const target = classifiers.find((classifier) => classifier.id === targetId);
    setDragged(null);
    // Siblings only: roots among roots, grouping classifiers under the same grouped classifier.
    if (!source || !target || source.id === target.id || source.groupingId !== target.groupingId) return;
    const ids = tree.map((entry) => entry.classifier.id);
    const from = ids.indexOf(source.id);
    ids.splice(from, 1);
    const to = ids.indexOf(target.id);
    ids.splice(from <= to ? to + 1 : to, 0, source.id);
    setOrder(ids);
    reorder.mutate(ids);
  };

  return (
    <nav className="classifier-tree" data-testid="classifier-tree">
      <div className="classifier-tree-header">
        <h2>
          <FormattedMessage id="classifiers.title" />
        </h2>
        {canEdit ? (
          <button type="button" className="button button-primary button-small" onClick={onAdd} data-testid="classifier-add">
            <FormattedMessage id="classifiers.add" />
          </button>
        ) : null}
      </div>
      {reorder.isError ? (
        <ErrorAlert error={reorder.error} title={<FormattedMessage id="classifiers.reorderFailed" />} testId="classifier-reorder-error" />
      ) : null}
      <ul>
        {tree.map(({ classifier, depth }) => (
          <li
            key={classifier.id}
            className={`classifier-tree-item depth-${depth}${classifier.id === selectedId ? ' selected' : ''}${dragged === classifier.id ? ' dragging' : ''}`}
            draggable={canEdit}
            onDragStart={(event) => {
              event.dataTransfer.effectAllowed = 'move';
              event.dataTransfer.setData('text/plain', classifier.id);
              setDragged(classifier.id);
            }}
            onDragEnd={() => setDragged(null)}
            onDragOver={(event) => {
              if (canEdit) event.preventDefault();
            }}
            onDrop={(event) => onDrop(event, classifier.id)}
            data-testid="classifier-tree-item"
            data-id={classifier.id}
            data-depth={depth}
          >
            {canEdit ? (
              <span className="drag-handle" title={intl.formatMessage({ id: 'classifiers.dragHandle' })} aria-hidden="true">
                ⋮⋮
              </span>
            ) : null}
            <button
              type="button"
              className="classifier-tree-link"
              onClick={() => navigate(`/document/${documentId}/classifiers/${classifier.id}`)}
              data-testid="classifier-tree-link"
            >
              {classifier.name}
            </button>
            {classifier.master ? <MasterBadge /> : null}
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The master classifier's marker in the tree: a star and a short word, named and explained by the full term. */
function MasterBadge() {
  const intl = useIntl();
  const name = intl.formatMessage({ id: 'classifiers.master' });
  return (
    <span className="badge badge-master" role="img" aria-label={name} title={name} data-testid="classifier-master">
      <StarIcon />
      <FormattedMessage id="classifiers.masterShort" />
    </span>
  );
}
