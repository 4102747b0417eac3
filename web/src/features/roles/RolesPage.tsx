import { hasAnyPrivilege, PRIVILEGES, type Privilege, roleInputSchema } from '@eelarve/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ColDef,
  GetRowIdParams,
  GridApi,
  GridReadyEvent,
  PostSortRowsParams,
  RowClassRules,
  RowEditingStoppedEvent,
  SuppressKeyboardEventParams,
} from 'ag-grid-community';
import { type MouseEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { errorCodeOf } from '../../api';
import { Alert } from '../../components/Alert';
import { ConfirmActionDialog, useConfirmAction } from '../../components/ConfirmAction';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PlusIcon } from '../../components/icons';
import { useToasts } from '../../components/Toasts';
import { actionsColumn, textComparator } from '../../grid/columns';
import { DataGrid } from '../../grid/DataGrid';
import { validationMessageKey, validationValues } from '../../i18n/keys';
import { useLocale } from '../../i18n/I18nProvider';
import { useCurrentUser } from '../auth/hooks';
import { createRole, deleteRole, fetchPrivileges, fetchRoles, PRIVILEGES_QUERY_KEY, type RolePayload, roleKeys, updateRole } from './api';
import { RoleActionsCell, RoleNameCell, RolePrivilegesCell, RolePrivilegesEditor, type RolesGridContext, RoleTextEditor } from './cells';
import {
  type DraftField,
  draftOf,
  EMPTY_DRAFT,
  type EditSession,
  HIGHLIGHT_MS,
  RoleEditStore,
  type RoleRow,
  rowFromRole,
  sortPrivileges,
  useEditSession,
  shownValue,
} from './edit-state';

/** The users area's occupation lists (their role names follow the roles). */
const OCCUPATIONS_QUERY_PREFIX = ['occupations'] as const;

/** Server codes that concern the name: the name editor is marked besides the toast. */
const NAME_ERRORS = new Set(['ROLE_NAME_NOT_UNIQUE', 'ROLE_RESERVED']);

const FIELD_LABELS = { name: 'roles.column.name', description: 'roles.column.description', privilegeIds: 'roles.column.privileges' } as const;

/** /settings: the roles of the organisation with inline editing (spec 1, sections 2 and 4). */
export function RolesPage() {
  const intl = useIntl();
  const { locale } = useLocale();
  const me = useCurrentUser();
  const organizationId = me.organizationId ?? '';
  const canEdit = hasAnyPrivilege(me.privileges, 'ROLES_ADMIN');
  const queryClient = useQueryClient();
  const { showError } = useToasts();

  const [store] = useState(() => new RoleEditStore());
  const session = useEditSession(store);
  const [pending, setPending] = useState<RoleRow | null>(null);
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(() => new Set());
  const gridApi = useRef<GridApi<RoleRow> | null>(null);
  const startWhenReady = useRef<string | null>(null);
  const newRows = useRef(0);
  const timers = useRef(new Set<number>());

  const roles = useQuery({ queryKey: roleKeys.list(organizationId), queryFn: () => fetchRoles(organizationId) });
  const privileges = useQuery({ queryKey: PRIVILEGES_QUERY_KEY, queryFn: fetchPrivileges, enabled: canEdit, staleTime: Number.POSITIVE_INFINITY });

  useEffect(() => {
    const pendingTimers = timers.current;
    return () => {
      for (const timer of pendingTimers) window.clearTimeout(timer);
    };
  }, []);

  const highlight = useCallback((key: string) => {
    setHighlighted((current) => new Set(current).add(key));
    const timer = window.setTimeout(() => {
      timers.current.delete(timer);
      setHighlighted((current) => {
        const next = new Set(current);
        next.delete(key);
        return next;
      });
    }, HIGHLIGHT_MS);
    timers.current.add(timer);
  }, []);

  const rows = useMemo<RoleRow[]>(() => {
    const saved = (roles.data ?? []).map(rowFromRole);
    return pending ? [pending, ...saved] : saved;
  }, [roles.data, pending]);

  /** Opens the editors of the row (now, or as soon as the grid has it). */
  const beginEdit = useCallback((key: string) => {
    const api = gridApi.current;
    const node = api?.getRowNode(key);
    if (!api || !node || node.rowIndex === null) {
      startWhenReady.current = key;
      return;
    }
    startWhenReady.current = null;
    api.ensureNodeVisible(node);
    api.startEditingCell({ rowIndex: node.rowIndex, colKey: 'name' });
  }, []);

  useEffect(() => {
    if (startWhenReady.current && rows.length > 0) beginEdit(startWhenReady.current);
  }, [rows, beginEdit]);

  /** Back to viewing: the editors close and an unsaved row disappears. */
  const finishEditing = useCallback(() => {
    const key = store.current?.key;
    store.clear();
    startWhenReady.current = null;
    const api = gridApi.current;
    api?.stopEditing(true);
    // The cells show the row's own values again (not what was typed).
    const node = key ? api?.getRowNode(key) : undefined;
    if (api && node) api.refreshCells({ rowNodes: [node], force: true });
    setPending(null);
  }, [store]);

  const startSession = useCallback(
    (row: RoleRow, mode: EditSession['mode'], original = draftOf(row)) => {
      if (store.current) return;
      store.start(row.key, mode, original);
      if (mode === 'editing') {
        beginEdit(row.key);
      } else {
        setPending(row);
        highlight(row.key);
        startWhenReady.current = row.key;
      }
    },
    [store, beginEdit, highlight],
  );

  const onAdd = () => {
    newRows.current += 1;
    const row: RoleRow = { key: `new-${newRows.current}`, id: null, ...EMPTY_DRAFT, type: 'DEFAULT', inUse: false };
    startSession(row, 'new', EMPTY_DRAFT);
  };

  /** The roles, and the occupations that show role names. */
  const refreshRoles = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: roleKeys.list(organizationId) }),
      queryClient.invalidateQueries({ queryKey: OCCUPATIONS_QUERY_PREFIX }),
    ]);

  const save = useMutation({
    mutationFn: ({ editing, payload }: { editing: EditSession; payload: RolePayload }) =>
      editing.mode === 'editing' ? updateRole(organizationId, editing.key, payload) : createRole(organizationId, payload),
    onSuccess: async (result, { editing }) => {
      await refreshRoles();
      finishEditing();
      if (editing.mode !== 'editing' && result?.id) highlight(result.id);
    },
    onError: (error) => {
      const code = errorCodeOf(error);
      store.setInvalid(NAME_ERRORS.has(code) ? { name: code } : {});
      showError(error);
    },
  });

  const onSave = useCallback(() => {
    const editing = store.current;
    if (!editing || editing.saving || !editing.changed) return;
    const parsed = roleInputSchema.safeParse(editing.draft);
    if (!parsed.success) {
      const invalid: EditSession['invalid'] = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]) as DraftField;
        if (field in FIELD_LABELS && !invalid[field]) invalid[field] = issue.message;
      }
      store.setInvalid(invalid);
      return;
    }
    store.setSaving(true);
    const { name, description, privilegeIds } = parsed.data;
    save.mutate({ editing, payload: { name, description, privilegeIds: sortPrivileges(privilegeIds) } });
  }, [store, save.mutate]);

  const remove = useConfirmAction({
    run: (row: RoleRow) => deleteRole(organizationId, row.key),
    onDone: refreshRoles,
  });

  // The cells read the context when they are used: one stable object, refreshed on every render.
  const contextRef = useRef<RolesGridContext | null>(null);
  const privilegeIds = useMemo<Privilege[]>(
    () => sortPrivileges(privileges.data?.map((privilege) => privilege.id) ?? [...PRIVILEGES]),
    [privileges.data],
  );
  const handlers: RolesGridContext = {
    store,
    canEdit,
    privilegeIds,
    onEdit: (row) => startSession(row, 'editing'),
    onDuplicate: (row) => {
      newRows.current += 1;
      startSession({ ...row, key: `new-${newRows.current}`, id: null, type: 'DEFAULT', inUse: false }, 'duplicating', draftOf(row));
    },
    onDelete: remove.ask,
    onSave,
    onCancel: finishEditing,
  };
  if (contextRef.current) Object.assign(contextRef.current, handlers);
  else contextRef.current = handlers;
  const context = contextRef.current;

  const columns = useMemo<ColDef<RoleRow>[]>(() => {
    const editable = ({ data }: { data?: RoleRow }) =>
      canEdit && data !== undefined && data.type !== 'ADMIN' && store.current?.key === data.key;
    // Enter and Escape belong to the editors (save, cancel); Tab stays inside the edited row.
    const keys = (first: boolean, last: boolean) => (params: SuppressKeyboardEventParams<RoleRow>) => {
      if (!params.editing) return false;
      const { key, shiftKey } = params.event;
      if (key === 'Enter' || key === 'Escape') return true;
      return key === 'Tab' && ((last && !shiftKey) || (first && shiftKey));
    };
    const text = textComparator(locale);
    const definitions: ColDef<RoleRow>[] = [
      {
        colId: 'name',
        field: 'name',
        headerName: intl.formatMessage({ id: 'roles.column.name' }),
        flex: 1.2,
        minWidth: 220,
        sort: 'asc',
        comparator: text,
        valueGetter: ({ data }) => (data ? shownValue(store.current, data, 'name') : ''),
        cellRenderer: RoleNameCell,
        cellEditor: RoleTextEditor,
        editable,
        suppressKeyboardEvent: keys(true, false),
      },
      {
        colId: 'description',
        field: 'description',
        headerName: intl.formatMessage({ id: 'roles.column.description' }),
        flex: 1.5,
        minWidth: 220,
        comparator: text,
        valueGetter: ({ data }) => (data ? shownValue(store.current, data, 'description') : ''),
        tooltipValueGetter: ({ value }) => (typeof value === 'string' && value.length > 40 ? value : undefined),
        cellEditor: RoleTextEditor,
        editable,
        suppressKeyboardEvent: keys(false, false),
      },
      {
        colId: 'privileges',
        field: 'privilegeIds',
        headerName: intl.formatMessage({ id: 'roles.column.privileges' }),
        flex: 2.6,
        minWidth: 340,
        sortable: false,
        autoHeight: true,
        cellClass: 'chips-cell',
        valueGetter: ({ data }) => (data ? shownValue(store.current, data, 'privilegeIds') : []),
        cellRenderer: RolePrivilegesCell,
        cellEditor: RolePrivilegesEditor,
        editable,
        suppressKeyboardEvent: keys(false, true),
      },
    ];
    if (canEdit) {
      definitions.push({
        ...actionsColumn(intl.formatMessage({ id: 'roles.column.actions' }), 196, RoleActionsCell),
        // Enter and Space press the focused button (save, cancel, edit…), not the grid's own keys.
        suppressKeyboardEvent: ({ event }) => (event.key === 'Enter' || event.key === ' ') && event.target instanceof HTMLButtonElement,
      });
    }
    return definitions;
  }, [intl, locale, canEdit, store]);

  const editingKey = session?.key ?? null;
  const editingMode = session?.mode ?? null;
  const rowClassRules = useMemo<RowClassRules<RoleRow>>(
    () => ({
      'row-highlighted': ({ data }) => data !== undefined && highlighted.has(data.key),
      'row-admin': ({ data }) => data?.type === 'ADMIN',
      'row-state-editing': ({ data }) => data?.key === editingKey && editingMode === 'editing',
      'row-state-new': ({ data }) => data?.key === editingKey && editingMode === 'new',
      'row-state-duplicating': ({ data }) => data?.key === editingKey && editingMode === 'duplicating',
    }),
    [highlighted, editingKey, editingMode],
  );

  const onRowEditingStopped = useCallback(
    (event: RowEditingStoppedEvent<RoleRow>) => {
      const current = store.current;
      // The grid ended the edit on its own (a click into another row): the row stays edited
      // until it is saved or cancelled.
      if (current && current.key === event.node.id) window.setTimeout(() => store.current?.key === current.key && beginEdit(current.key), 0);
    },
    [store, beginEdit],
  );

  const onGridReady = useCallback(
    (event: GridReadyEvent<RoleRow>) => {
      gridApi.current = event.api;
      // A new grid (the language changed) reopens the editors of the row being edited.
      if (store.current) startWhenReady.current = store.current.key;
    },
    [store],
  );
  const onRowDataUpdated = useCallback(() => {
    if (startWhenReady.current) beginEdit(startWhenReady.current);
  }, [beginEdit]);

  const keepOtherRowsInert = useCallback(
    (event: MouseEvent<HTMLDivElement>) => {
      const editing = store.current;
      if (!editing) return;
      const row = (event.target as HTMLElement).closest('.ag-row');
      if (row && row.getAttribute('row-id') !== editing.key) {
        event.preventDefault();
        event.stopPropagation();
      }
    },
    [store],
  );

  const invalidEntries = Object.entries(session?.invalid ?? {}).filter(([, message]) => message?.startsWith('validation.')) as Array<
    [keyof typeof FIELD_LABELS, string]
  >;

  return (
    <div className="page roles-page" data-testid="roles-page">
      <div className="page-header">
        <div className="page-heading">
          <h1 className="page-title">
            <FormattedMessage id="roles.title" />
          </h1>
          <p className="muted">
            <FormattedMessage id="roles.subtitle" />
          </p>
        </div>
        {canEdit ? (
          <button
            type="button"
            className="button button-primary"
            onClick={onAdd}
            disabled={session !== null || roles.isPending}
            title={session ? intl.formatMessage({ id: 'roles.action.busy' }) : undefined}
            data-testid="roles-add"
          >
            <PlusIcon />
            <FormattedMessage id="roles.add" />
          </button>
        ) : null}
      </div>

      {!canEdit ? (
        <Alert kind="info" testId="roles-read-only">
          <FormattedMessage id="roles.readOnly" />
        </Alert>
      ) : null}
      {roles.isError ? <ErrorAlert error={roles.error} title={<FormattedMessage id="roles.loadFailed" />} /> : null}
      {invalidEntries.length > 0 ? (
        <Alert kind="error" testId="role-validation-error">
          {invalidEntries.map(([field, message]) => (
            <div key={field} data-message={message}>
              <FormattedMessage
                id="roles.field.invalid"
                values={{
                  field: intl.formatMessage({ id: FIELD_LABELS[field] }),
                  problem: intl.formatMessage({ id: validationMessageKey(message) }, validationValues()),
                }}
              />
            </div>
          ))}
        </Alert>
      ) : null}

      {/* While a row is edited the other rows are inert: a click there neither focuses nor edits them. */}
      <div className="roles-grid-frame" onMouseDownCapture={keepOtherRowsInert}>
        <DataGrid<RoleRow>
          testId="roles-grid"
          height="70vh"
          rowData={roles.isPending ? null : rows}
          loading={roles.isPending}
          columnDefs={columns}
          context={context}
          getRowId={getRowKey}
          editType="fullRow"
          readOnlyEdit
          suppressClickEdit
          rowClassRules={rowClassRules}
          tooltipShowDelay={400}
          postSortRows={moveUnsavedFirst}
          onGridReady={onGridReady}
          onRowDataUpdated={onRowDataUpdated}
          onRowEditingStopped={onRowEditingStopped}
        />
      </div>

      <ConfirmActionDialog
        action={remove}
        testId="role-delete-dialog"
        title={<FormattedMessage id="roles.delete.title" />}
        message={(role) => <FormattedMessage id="roles.delete.question" values={{ name: role.name }} />}
        confirmLabel={<FormattedMessage id="common.delete" />}
        failedTitle={<FormattedMessage id="roles.delete.failed" />}
        errorTestId="role-delete-error"
      />
    </div>
  );
}

const getRowKey = ({ data }: GetRowIdParams<RoleRow>) => data.key;

/** The unsaved (new or duplicated) row stays on top whatever the sort. */
function moveUnsavedFirst({ nodes }: PostSortRowsParams<RoleRow>): void {
  const index = nodes.findIndex((node) => node.data?.id === null);
  if (index > 0) nodes.unshift(...nodes.splice(index, 1));
}
