import { hasAnyPrivilege, schemeInputSchema } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import type { GetRowIdParams, RowClassRules, RowDragEndEvent } from 'ag-grid-community';
import { useCallback, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useParams } from 'react-router';
import { errorCodeOf } from '../../api';
import { Alert } from '../../components/Alert';
import { ConfirmActionDialog } from '../../components/ConfirmAction';
import { useToasts } from '../../components/Toasts';
import { DataGrid } from '../../grid/DataGrid';
import { ListError } from '../../grid/ListError';
import { type EditMode, moveUnsavedFirst } from '../../grid/inline-edit';
import { InlineAddButton, InlineEditInvalidAlert } from '../../grid/InlineEditParts';
import { useInlineRowEditing } from '../../grid/useInlineRowEditing';
import type { MessageKey } from '../../i18n/messages';
import { useCurrentUser } from '../../app/session';
import { useDeleteScheme, useReorderSchemes, useSaveScheme } from './api/mutations';
import { schemeClassifiersQuery, schemeListQuery } from './api/queries';
import type { SchemesGridContext } from './SchemeCells';
import {
  draftOf,
  EMPTY_SCHEME_DRAFT,
  type SchemeDraft,
  type SchemeDraftField,
  type SchemeEditSession,
  SchemeEditStore,
  type SchemeRow,
  rowFromScheme,
  schemePayload,
} from './scheme-edit';
import { SubBudgetsPanel } from './SubBudgetsPanel';
import { useSchemeColumns } from './useSchemeColumns';
import './schemes.css';

const FIELD_LABELS: Record<SchemeDraftField, MessageKey> = {
  name: 'schemes.column.name',
  fieldName: 'schemes.column.fieldName',
  description: 'schemes.column.description',
  main: 'schemes.column.main',
  secondary: 'schemes.column.secondary',
};
const SERVER_FIELD_ERRORS: Record<string, SchemeDraftField> = { SCHEME_NAME_NOT_UNIQUE: 'name', SCHEME_FIELD_NAME_NOT_UNIQUE: 'fieldName' };

/** /document/{documentId}/schemes: the schemes of a document and the selected scheme's sub-budgets (spec 2). */
export function SchemesTab() {
  const { documentId = '' } = useParams();
  const me = useCurrentUser();
  const canEdit = hasAnyPrivilege(me.privileges, 'SCHEMA_ADMIN');
  const { showError } = useToasts();

  const [collapsed, setCollapsed] = useState(false);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [notice, setNotice] = useState<MessageKey | null>(null);

  const schemes = useQuery(schemeListQuery(documentId));
  const classifiers = useQuery(schemeClassifiersQuery(documentId));

  const saved = useMemo(
    () => (schemes.data ?? []).map(rowFromScheme).sort((a, b) => a.displayOrder - b.displayOrder || a.name.localeCompare(b.name)),
    [schemes.data],
  );
  const rowEditing = useInlineRowEditing<SchemeRow, SchemeDraft>({ createStore: () => new SchemeEditStore(), saved });
  const { store, session, rows } = rowEditing;

  // The first scheme is selected until the user picks one; a deleted selection falls back to it.
  const selected = saved.find((row) => row.id === selectedId) ?? saved[0] ?? null;
  const selectedScheme = schemes.data?.find((scheme) => scheme.id === selected?.id);

  const startSession = (row: SchemeRow, mode: EditMode) => rowEditing.start(row, mode, mode === 'new' ? EMPTY_SCHEME_DRAFT : draftOf(row));

  const save = useSaveScheme<SchemeEditSession>(documentId, {
    onSaved: (result, editing) => {
      rowEditing.finishSaved(editing, result?.id);
      setNotice(editing.mode === 'editing' ? 'schemes.editSuccessful' : 'schemes.addSuccessful');
      if (editing.mode !== 'editing' && result?.id) setSelectedId(result.id);
    },
    onError: (error) => {
      const field = SERVER_FIELD_ERRORS[errorCodeOf(error)];
      store.setInvalid(field ? { [field]: errorCodeOf(error) } : {});
      showError(error);
    },
  });
  const { mutate: saveScheme } = save;
  const send = useCallback(
    (editing: SchemeEditSession) => {
      const current = saved.find((row) => row.key === editing.key);
      const payload = schemePayload(editing.draft, editing.mode === 'editing' ? current?.displayOrder : nextDisplayOrder(saved));
      saveScheme({ id: editing.mode === 'editing' ? editing.key : null, payload, context: editing });
    },
    [saved, saveScheme],
  );

  const { submit } = rowEditing;
  const onSave = useCallback(
    () =>
      submit({
        parse: (draft) => schemeInputSchema.safeParse(schemePayload(draft)),
        fields: FIELD_LABELS,
        // The classifier list's refusals are shown on the main classifiers.
        fieldOfPath: (path) => (path === 'classifierList' ? 'main' : path),
        send,
      }),
    [submit, send],
  );

  const reorder = useReorderSchemes(documentId);
  const remove = useDeleteScheme<SchemeRow>(documentId, () => setNotice('schemes.deleteSuccessful'));

  const classifierOptions = useMemo(
    () =>
      (classifiers.data ?? []).filter((classifier) => classifier.groupingId === null).map((classifier) => ({ value: classifier.id, label: classifier.name })),
    [classifiers.data],
  );
  const classifierNames = useMemo(() => new Map((classifiers.data ?? []).map((classifier) => [classifier.id, classifier.name])), [classifiers.data]);

  const contextRef = useRef<SchemesGridContext | null>(null);
  const handlers: SchemesGridContext = {
    store,
    canEdit,
    classifierOptions,
    classifierNames,
    selectedId: selected?.id ?? null,
    rowCount: saved.length,
    onSelect: (row) => row.id && setSelectedId(row.id),
    onEdit: (row) => startSession(row, 'editing'),
    onDuplicate: (row) => startSession({ ...row, key: rowEditing.newKey(), id: null, subBudgetsCount: 0 }, 'duplicating'),
    onDelete: remove.ask,
    onMove: (row, direction) => {
      const index = saved.findIndex((candidate) => candidate.key === row.key);
      const target = index + direction;
      if (index < 0 || target < 0 || target >= saved.length) return;
      const order = [...saved];
      const [moved] = order.splice(index, 1);
      if (moved) order.splice(target, 0, moved);
      reorder.mutate(order.map((candidate, position) => ({ id: candidate.key, displayOrder: position + 1 })));
    },
    onSave,
    onCancel: rowEditing.finish,
  };
  if (contextRef.current) Object.assign(contextRef.current, handlers);
  else contextRef.current = handlers;
  const context = contextRef.current;

  const columns = useSchemeColumns(canEdit, store);

  const selectedKey = selected?.key ?? null;
  const rowStateClasses = rowEditing.rowClassRules;
  const rowClassRules = useMemo<RowClassRules<SchemeRow>>(
    () => ({ ...rowStateClasses, 'row-selected-scheme': ({ data }) => data !== undefined && data.key === selectedKey }),
    [rowStateClasses, selectedKey],
  );

  const onRowDragEnd = (event: RowDragEndEvent<SchemeRow>) => {
    const order: string[] = [];
    event.api.forEachNode((node) => {
      if (node.data?.id) order.push(node.data.id);
    });
    if (order.join() === saved.map((row) => row.key).join()) return;
    reorder.mutate(order.map((id, position) => ({ id, displayOrder: position + 1 })));
  };

  const onAdd = () => {
    startSession({ key: rowEditing.newKey(), id: null, ...EMPTY_SCHEME_DRAFT, displayOrder: 0, subBudgetsCount: 0 }, 'new');
    setCollapsed(false);
  };

  return (
    <div className="schemes-tab" data-testid="schemes-tab">
      <SchemesHeader
        collapsed={collapsed}
        onToggle={() => setCollapsed((value) => !value)}
        add={canEdit ? { busy: session !== null, loading: schemes.isPending, onClick: onAdd } : null}
      />

      {!canEdit ? (
        <Alert kind="info" testId="schemes-read-only">
          <FormattedMessage id="schemes.readOnly" />
        </Alert>
      ) : null}
      {notice ? (
        <Alert kind="success" testId="schemes-notice">
          <FormattedMessage id={notice} />
        </Alert>
      ) : null}
      {schemes.isError ? (
        <ListError
          error={schemes.error}
          title={<FormattedMessage id="schemes.loadFailed" />}
          onRetry={() => void schemes.refetch()}
          testId="schemes-load-error"
        />
      ) : null}
      <InlineEditInvalidAlert invalid={session?.invalid ?? {}} labels={FIELD_LABELS} messageId="schemes.field.invalid" testId="scheme-validation-error" />

      {collapsed || schemes.isError ? null : (
        <DataGrid<SchemeRow>
          testId="schemes-grid"
          height={Math.min(420, 90 + Math.max(rows.length, 2) * 44)}
          rowData={schemes.isPending ? null : rows}
          loading={schemes.isPending}
          columnDefs={columns}
          context={context}
          getRowId={getRowKey}
          rowClassRules={rowClassRules}
          postSortRows={moveUnsavedFirst}
          rowDragManaged={canEdit}
          onRowDragEnd={onRowDragEnd}
        />
      )}

      <SubBudgetsPanel documentId={documentId} scheme={selectedScheme ?? null} classifiers={classifiers.data ?? []} canEdit={canEdit} />

      <ConfirmActionDialog
        action={remove}
        testId="scheme-delete-dialog"
        title={<FormattedMessage id="schemes.delete.title" />}
        message={(row) => <FormattedMessage id="schemes.delete.question" values={{ name: row.name }} />}
        confirmLabel={<FormattedMessage id="common.delete" />}
        failedTitle={<FormattedMessage id="schemes.delete.failed" />}
        errorTestId="scheme-delete-error"
      />
    </div>
  );
}

const getRowKey = ({ data }: GetRowIdParams<SchemeRow>) => data.key;

/** New schemes go last. */
function nextDisplayOrder(rows: readonly SchemeRow[]): number {
  return rows.reduce((max, row) => Math.max(max, row.displayOrder), 0) + 1;
}

/** The schemes' title with the collapse toggle, and the add button for editors. */
function SchemesHeader({
  collapsed,
  onToggle,
  add,
}: {
  collapsed: boolean;
  onToggle: () => void;
  add: { busy: boolean; loading: boolean; onClick: () => void } | null;
}) {
  const intl = useIntl();
  return (
    <div className="schemes-header">
      <div className="schemes-heading">
        <button
          type="button"
          className="icon-button schemes-collapse"
          aria-expanded={!collapsed}
          aria-label={intl.formatMessage({ id: 'schemes.toggle' })}
          onClick={onToggle}
          data-testid="schemes-toggle"
        >
          <span aria-hidden="true">{collapsed ? '▸' : '▾'}</span>
        </button>
        <h2 className="schemes-title">
          <FormattedMessage id="schemes.title" />
        </h2>
      </div>
      {add ? (
        <InlineAddButton
          busy={add.busy}
          loading={add.loading}
          busyTitleId="schemes.action.busy"
          labelId="schemes.add"
          onClick={add.onClick}
          testId="schemes-add"
        />
      ) : null}
    </div>
  );
}
