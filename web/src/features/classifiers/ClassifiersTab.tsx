import { type Classifier, type ClassifierItem, hasAnyPrivilege } from '@eelarve/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColDef, RowSelectionOptions, SelectionChangedEvent } from 'ag-grid-community';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { type DragEvent, useCallback, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Navigate, useNavigate, useParams } from 'react-router';
import { Alert } from '../../components/Alert';
import { ConfirmActionDialog, useConfirmAction } from '../../components/ConfirmAction';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Spinner } from '../../components/Spinner';
import { useScrollIntoView } from '../../components/useScrollIntoView';
import { textComparator } from '../../grid/columns';
import { GridToolbar } from '../../grid/GridToolbar';
import { QueryGrid } from '../../grid/QueryGrid';
import { useGridSearch } from '../../grid/search';
import { useLocale } from '../../i18n/I18nProvider';
import type { MessageKey } from '../../i18n/messages';
import { useCurrentUser } from '../../app/session';
import { IconAction } from '../../components/IconAction';
import { EditIcon, StarIcon, TrashIcon } from '../../components/icons';
import { classifierKeys, deleteClassifier, deleteItem, deleteItems, fetchClassifiers, fetchItems, reorderClassifiers } from './api';
import { ClassifierModal } from './ClassifierModal';
import { itemInUse } from './form';
import { ImportModal } from './ImportModal';
import { type ItemFormMode, ItemModal } from './ItemModal';
import './classifiers.css';

/** A success (or import failure) message above the items (spec 2, section 8). */
interface Notice {
  key: MessageKey;
  values?: Record<string, number>;
  failed?: boolean;
}

/** The classifiers in tree order: each non-grouping classifier, then the grouping classifiers that group it. */
export function classifierTree(classifiers: readonly Classifier[]): { classifier: Classifier; depth: number }[] {
  const byOrder = [...classifiers].sort((a, b) => a.displayOrder - b.displayOrder || a.name.localeCompare(b.name));
  const roots = byOrder.filter((classifier) => classifier.groupingId === null || !classifiers.some((other) => other.id === classifier.groupingId));
  return roots.flatMap((root) => [
    { classifier: root, depth: 0 },
    ...byOrder.filter((child) => child.groupingId === root.id).map((child) => ({ classifier: child, depth: 1 })),
  ]);
}

/** /document/{documentId}/classifiers/{classifierId?} (spec 2, section 2: classifiers tab). */
export function ClassifiersTab() {
  const { documentId = '', classifierId } = useParams();
  const me = useCurrentUser();
  const canEdit = hasAnyPrivilege(me.privileges, 'CLASSIFICATION_ADMIN');
  const classifiers = useQuery({ queryKey: classifierKeys.list(documentId), queryFn: () => fetchClassifiers(documentId), enabled: documentId !== '' });

  if (classifiers.isPending) return <Spinner />;
  if (classifiers.isError)
    return (
      <section className="classifiers-tab" data-testid="classifiers-tab">
        <ErrorAlert error={classifiers.error} title={<FormattedMessage id="classifiers.loadFailed" />} testId="classifiers-load-error" />
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

function ClassifiersScreen({ documentId, classifiers, selected, canEdit }: { documentId: string; classifiers: Classifier[]; selected: Classifier | null; canEdit: boolean }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [modal, setModal] = useState<{ classifier: Classifier | null } | null>(null);
  const [success, setSuccess] = useState<Notice | null>(null);
  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: classifierKeys.all }), [queryClient]);

  const remove = useConfirmAction({
    run: (classifier: Classifier) => deleteClassifier(classifier.id),
    onDone: async () => {
      await refresh();
      navigate(`/document/${documentId}/classifiers`, { replace: true });
    },
  });

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
      {selected ? <ItemsSection key={`items-${selected.id}`} documentId={documentId} classifier={selected} classifiers={classifiers} canEdit={canEdit} onSuccess={setSuccess} /> : null}

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

// ---- tree with drag reorder ----------------------------------------------------------------

const classifierItemSelector = (id: string) => `[data-testid="classifier-tree-item"][data-id="${CSS.escape(id)}"]`;

function ClassifierTree({
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
  const queryClient = useQueryClient();
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

  const reorder = useMutation({
    mutationFn: (ids: string[]) => reorderClassifiers(documentId, ids.map((id, index) => ({ id, displayOrder: index }))),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: classifierKeys.list(documentId) });
      setOrder(null);
    },
  });

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
      {reorder.isError ? <ErrorAlert error={reorder.error} title={<FormattedMessage id="classifiers.reorderFailed" />} testId="classifier-reorder-error" /> : null}
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
            <button type="button" className="classifier-tree-link" onClick={() => navigate(`/document/${documentId}/classifiers/${classifier.id}`)} data-testid="classifier-tree-link">
              {classifier.name}
            </button>
            {classifier.master ? (
              <MasterBadge />
            ) : null}
          </li>
        ))}
      </ul>
    </nav>
  );
}

// ---- metadata panel ------------------------------------------------------------------------

function ClassifierMeta({
  classifier,
  classifiers,
  canEdit,
  onEdit,
  onDelete,
}: {
  classifier: Classifier;
  classifiers: Classifier[];
  canEdit: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const intl = useIntl();
  const nameOf = (id: string | null) => classifiers.find((other) => other.id === id)?.name;
  const none = intl.formatMessage({ id: 'classifiers.meta.none' });
  const yesNo = (value: boolean) => intl.formatMessage({ id: value ? 'common.yes' : 'common.no' });
  const deleteBlocked = (classifier.itemsCount ?? 0) > 0 || classifier.isInUseSchema || classifier.groupedByIds.length > 0;
  const rows: [MessageKey, string][] = [
    ['classifiers.meta.fieldName', classifier.fieldName],
    ['classifiers.meta.itemName', classifier.itemName],
    ['classifiers.meta.description', classifier.description || none],
    ['classifiers.meta.required', yesNo(classifier.required)],
    ['classifiers.meta.itemCanChangeSign', yesNo(classifier.itemCanChangeSign)],
    ['classifiers.meta.grouping', nameOf(classifier.groupingId) ?? none],
    ['classifiers.meta.groupedBy', classifier.groupedByIds.map((id) => nameOf(id) ?? id).join(', ') || none],
    ['classifiers.meta.displayMode', intl.formatMessage({ id: `classifiers.displayMode.${classifier.displayMode}` })],
    ['classifiers.meta.codeType', intl.formatMessage({ id: `classifiers.codeType.${classifier.codeSettings.typeName}` })],
    ['classifiers.meta.codeLength', intl.formatMessage({ id: 'classifiers.meta.codeLengthValue' }, { min: classifier.codeSettings.minLength, max: classifier.codeSettings.maxLength })],
    ['classifiers.meta.hierarchical', yesNo(classifier.codeSettings.hierarchical)],
  ];
  return (
    <div className="classifier-meta" data-testid="classifier-meta">
      <div className="classifier-meta-header">
        <h2 data-testid="classifier-meta-name">
          {classifier.name}
          {classifier.master ? (
            <span className="badge">
              <FormattedMessage id="classifiers.master" />
            </span>
          ) : null}
        </h2>
        {canEdit ? (
          <div className="row-actions">
            <button type="button" className="button button-small" onClick={onEdit} data-testid="classifier-edit">
              <EditIcon />
              <FormattedMessage id="classifiers.edit" />
            </button>
            <span title={deleteBlocked ? intl.formatMessage({ id: 'classifiers.deleteBlocked' }) : undefined} data-testid="classifier-delete-tooltip">
              <button type="button" className="button button-small button-danger" onClick={onDelete} disabled={deleteBlocked} data-testid="classifier-delete">
                <TrashIcon />
                <FormattedMessage id="classifiers.delete" />
              </button>
            </span>
          </div>
        ) : (
          <span className="muted" data-testid="classifiers-read-only">
            <FormattedMessage id="classifiers.readOnly" />
          </span>
        )}
      </div>
      <dl className="classifier-meta-list">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>
              <FormattedMessage id={label} />
            </dt>
            <dd data-testid={`classifier-meta-${label.slice('classifiers.meta.'.length)}`}>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

// ---- items ---------------------------------------------------------------------------------

interface ItemsGridContext {
  canEdit: boolean;
  onEdit: (item: ClassifierItem) => void;
  onDelete: (item: ClassifierItem) => void;
}

const itemSearchTexts = (item: ClassifierItem) => [item.code, item.name, item.description, ...item.groupedBy.map((ref) => ref.code)];

function ItemsSection({
  documentId,
  classifier,
  classifiers,
  canEdit,
  onSuccess,
}: {
  documentId: string;
  classifier: Classifier;
  classifiers: Classifier[];
  canEdit: boolean;
  onSuccess: (notice: Notice | null) => void;
}) {
  const intl = useIntl();
  const { locale } = useLocale();
  const queryClient = useQueryClient();
  const items = useQuery({ queryKey: classifierKeys.items(classifier.id), queryFn: () => fetchItems(classifier.id) });
  const { search, setSearch, rows } = useGridSearch(items.data, itemSearchTexts);
  const [selection, setSelection] = useState<ClassifierItem[]>([]);
  const [form, setForm] = useState<ItemFormMode | null>(null);
  const [importing, setImporting] = useState(false);
  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: classifierKeys.all }), [queryClient]);
  const groupings = classifiers.filter((other) => classifier.groupedByIds.includes(other.id));

  const removeOne = useConfirmAction({
    run: (item: ClassifierItem) => deleteItem(classifier.id, item.id),
    onDone: async () => {
      await refresh();
      onSuccess({ key: 'classifiers.items.deleteSuccess' });
    },
  });
  const removeMany = useConfirmAction({
    run: (selected: ClassifierItem[]) => deleteItems(classifier.id, selected.map((item) => item.id)),
    onDone: async () => {
      setSelection([]);
      await refresh();
      onSuccess({ key: 'classifiers.items.deleteSelectedSuccess' });
    },
  });

  const columns = useMemo<ColDef<ClassifierItem>[]>(() => {
    const text = textComparator(locale);
    const definitions: ColDef<ClassifierItem>[] = [
      { colId: 'code', field: 'code', headerName: intl.formatMessage({ id: 'classifiers.items.column.code' }), width: 140, sort: 'asc', comparator: text, cellClass: 'item-code' },
      { colId: 'name', field: 'name', headerName: intl.formatMessage({ id: 'classifiers.items.column.name' }), flex: 1.4, minWidth: 180, comparator: text },
      { colId: 'description', field: 'description', headerName: intl.formatMessage({ id: 'classifiers.items.column.description' }), flex: 1, minWidth: 160 },
      {
        colId: 'sign',
        field: 'sign',
        headerName: intl.formatMessage({ id: 'classifiers.items.column.sign' }),
        width: 90,
        valueFormatter: ({ value }) => (value === 1 ? '+' : value === -1 ? '−' : ''),
      },
      {
        colId: 'unselectable',
        field: 'unselectable',
        headerName: intl.formatMessage({ id: 'classifiers.items.column.unselectable' }),
        width: 130,
        valueFormatter: ({ value }) => (value ? intl.formatMessage({ id: 'common.yes' }) : ''),
      },
      ...groupings.map<ColDef<ClassifierItem>>((grouping) => ({
        colId: `grouping-${grouping.id}`,
        headerName: grouping.name,
        width: 150,
        valueGetter: ({ data }) => data?.groupedBy.find((ref) => ref.classifierId === grouping.id)?.code ?? '',
      })),
    ];
    if (canEdit) {
      definitions.push({
        colId: 'actions',
        headerName: intl.formatMessage({ id: 'classifiers.items.column.actions' }),
        headerClass: 'visually-hidden-header',
        width: 100,
        sortable: false,
        resizable: false,
        cellRenderer: ItemActionsCell,
        cellClass: 'actions-cell',
      });
    }
    return definitions;
  }, [intl, locale, canEdit, groupings]);

  const context = useMemo<ItemsGridContext>(() => ({ canEdit, onEdit: (item) => setForm({ kind: 'edit', item }), onDelete: removeOne.ask }), [canEdit, removeOne.ask]);
  const rowSelection = useMemo<RowSelectionOptions<ClassifierItem> | undefined>(() => (canEdit ? { mode: 'multiRow', enableClickSelection: false } : undefined), [canEdit]);
  const selectedInUse = selection.some(itemInUse);

  return (
    <div className="classifier-items" data-testid="classifier-items">
      <GridToolbar
        searchLabel="classifiers.items.search"
        search={search}
        onSearch={setSearch}
        searchTestId="items-search"
        info={
          items.data ? (
            <span className="muted" data-testid="items-count">
              <FormattedMessage id="classifiers.items.count" values={{ count: rows.length }} />
            </span>
          ) : null
        }
        add={canEdit ? { label: 'classifiers.items.add', testId: 'item-add', onClick: () => setForm({ kind: 'add' }) } : undefined}
      />
      {canEdit ? (
        <div className="toolbar classifier-items-actions">
          <div className="toolbar-start">
            <button type="button" className="button button-small" disabled={selection.length === 0} onClick={() => setForm({ kind: 'bulk', items: selection })} data-testid="items-edit-selected">
              <FormattedMessage id="classifiers.items.editSelected" values={{ count: selection.length }} />
            </button>
            <span title={selectedInUse ? intl.formatMessage({ id: 'classifiers.items.someInUse' }) : undefined} data-testid="items-delete-selected-tooltip">
              <button
                type="button"
                className="button button-small button-danger"
                disabled={selection.length === 0 || selectedInUse}
                onClick={() => removeMany.ask(selection)}
                data-testid="items-delete-selected"
              >
                <FormattedMessage id="classifiers.items.deleteSelected" values={{ count: selection.length }} />
              </button>
            </span>
          </div>
          <button type="button" className="button" onClick={() => setImporting(true)} data-testid="items-import">
            <FormattedMessage id="classifiers.items.import" />
          </button>
        </div>
      ) : null}
      <QueryGrid<ClassifierItem>
        query={items}
        rows={rows}
        loadFailed="classifiers.items.loadFailed"
        testId="items-grid"
        height="50vh"
        columnDefs={columns}
        context={context}
        rowSelection={rowSelection}
        onSelectionChanged={(event: SelectionChangedEvent<ClassifierItem>) => setSelection(event.api.getSelectedRows())}
        tooltipShowDelay={300}
      />

      {form ? (
        <ItemModal
          classifier={classifier}
          classifiers={classifiers}
          items={items.data ?? []}
          mode={form}
          onClose={() => setForm(null)}
          onSaved={async (key) => {
            await refresh();
            onSuccess({ key });
          }}
        />
      ) : null}
      {importing ? (
        <ImportModal
          documentId={documentId}
          classifier={classifier}
          classifiers={classifiers}
          onClose={() => setImporting(false)}
          onImported={async (count) => {
            await refresh();
            onSuccess({ key: 'classifiers.import.uploadSuccess', values: { count } });
          }}
          onFailed={() => onSuccess({ key: 'classifiers.import.uploadFailed', failed: true })}
        />
      ) : null}
      <ConfirmActionDialog
        action={removeOne}
        testId="item-delete-dialog"
        title={<FormattedMessage id="classifiers.items.delete.title" />}
        message={(item) => <FormattedMessage id="classifiers.items.delete.question" values={{ code: item.code, name: item.name }} />}
        confirmLabel={<FormattedMessage id="common.delete" />}
        failedTitle={<FormattedMessage id="classifiers.items.deleteError" />}
        errorTestId="item-delete-error"
      />
      <ConfirmActionDialog
        action={removeMany}
        testId="items-delete-dialog"
        title={<FormattedMessage id="classifiers.items.deleteSelected.title" />}
        message={(selected) => <FormattedMessage id="classifiers.items.deleteSelected.question" values={{ count: selected.length }} />}
        confirmLabel={<FormattedMessage id="common.delete" />}
        failedTitle={<FormattedMessage id="classifiers.items.deleteSelectedError" />}
        errorTestId="items-delete-error"
      />
    </div>
  );
}

function ItemActionsCell({ data, context }: CustomCellRendererProps<ClassifierItem, unknown, ItemsGridContext>) {
  const intl = useIntl();
  if (!data || !context.canEdit) return null;
  const inUse = itemInUse(data);
  return (
    <div className="row-actions">
      <IconAction label={intl.formatMessage({ id: 'classifiers.items.action.edit' })} onClick={() => context.onEdit(data)} testId="item-edit">
        <EditIcon />
      </IconAction>
      <IconAction
        label={intl.formatMessage({ id: 'classifiers.items.action.delete' })}
        title={inUse ? intl.formatMessage({ id: 'classifiers.items.inUse' }) : undefined}
        disabled={inUse}
        danger
        onClick={() => context.onDelete(data)}
        testId="item-delete"
      >
        <TrashIcon />
      </IconAction>
    </div>
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
