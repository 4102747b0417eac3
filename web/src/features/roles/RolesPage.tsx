import { hasAnyPrivilege, PRIVILEGES, type Privilege, roleInputSchema } from '@eelarve/shared';
import type { GetRowIdParams, GridApi, GridReadyEvent, RowClassRules, RowEditingStoppedEvent } from 'ag-grid-community';
import { type MouseEvent, useCallback, useEffect, useMemo, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { errorCodeOf } from '../../api';
import { Alert } from '../../components/Alert';
import { ConfirmActionDialog, useConfirmAction } from '../../components/ConfirmAction';
import { useToasts } from '../../components/Toasts';
import { DataGrid } from '../../grid/DataGrid';
import { ListError } from '../../grid/ListError';
import { moveUnsavedFirst } from '../../grid/inline-edit';
import { InlineAddButton, InlineEditInvalidAlert } from '../../grid/InlineEditParts';
import { useInlineRowEditing } from '../../grid/useInlineRowEditing';
import { useCurrentUser, useRefreshMe } from '../../app/session';
import { deleteRole, usePrivileges, useRefreshRoles, useRoles, useSaveRole } from './api';
import type { RolesGridContext } from './cells';
import { draftOf, EMPTY_DRAFT, type RoleDraft, RoleEditStore, type RoleRow, rowFromRole, sortPrivileges } from './edit-state';
import { useRoleColumns } from './role-columns';
import { removedFromStatuses, statusesUsingRole } from './status-usage';

/** Server codes that concern the name: the name editor is marked besides the toast. */
const NAME_ERRORS = new Set(['ROLE_NAME_NOT_UNIQUE', 'ROLE_RESERVED']);

const FIELD_LABELS = { name: 'roles.column.name', description: 'roles.column.description', privilegeIds: 'roles.column.privileges' } as const;

/** /settings: the roles of the organisation with inline editing (spec 1, sections 2 and 4). */
export function RolesPage() {
  const me = useCurrentUser();
  const organizationId = me.organizationId ?? '';
  const canEdit = hasAnyPrivilege(me.privileges, 'ROLES_ADMIN');
  const { showError } = useToasts();

  const gridApi = useRef<GridApi<RoleRow> | null>(null);
  const startWhenReady = useRef<string | null>(null);

  const roles = useRoles(organizationId);
  const privileges = usePrivileges(canEdit);
  // A list that failed with nothing loaded shows the list error alone, no empty grid beside it.
  const failedEmpty = roles.isError && roles.data === undefined;
  const saved = useMemo(() => (roles.data ?? []).map(rowFromRole), [roles.data]);

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

  const rowEditing = useInlineRowEditing<RoleRow, RoleDraft>({
    createStore: () => new RoleEditStore(),
    saved,
    // The grid's editors open on the edited row (a new row's once the grid has it).
    onStart: (row, mode) => {
      if (mode === 'editing') beginEdit(row.key);
      else startWhenReady.current = row.key;
    },
    // Back to viewing: the editors close.
    onFinish: (key) => {
      startWhenReady.current = null;
      const api = gridApi.current;
      api?.stopEditing(true);
      // The cells show the row's own values again (not what was typed).
      const node = key ? api?.getRowNode(key) : undefined;
      if (api && node) api.refreshCells({ rowNodes: [node], force: true });
    },
  });
  const { store, session, rows } = rowEditing;

  useEffect(() => {
    if (startWhenReady.current && rows.length > 0) beginEdit(startWhenReady.current);
  }, [rows, beginEdit]);

  const onAdd = () => {
    const row: RoleRow = { key: rowEditing.newKey(), id: null, ...EMPTY_DRAFT, type: 'DEFAULT', inUse: false };
    rowEditing.start(row, 'new', EMPTY_DRAFT);
  };

  const refreshRoles = useRefreshRoles(organizationId);

  const save = useSaveRole(organizationId, {
    onSuccess: (result, { editing }) => rowEditing.finishSaved(editing, result?.id),
    onError: (error) => {
      const code = errorCodeOf(error);
      store.setInvalid(NAME_ERRORS.has(code) ? { name: code } : {});
      showError(error);
    },
  });

  const { submit } = rowEditing;
  const onSave = useCallback(
    () =>
      submit({
        parse: (draft) => roleInputSchema.safeParse(draft),
        fields: FIELD_LABELS,
        send: (editing, { name, description, privilegeIds }) =>
          save.mutate({ editing, payload: { name, description, privilegeIds: sortPrivileges(privilegeIds) } }),
      }),
    [submit, save.mutate],
  );

  const refreshMe = useRefreshMe();
  const remove = useConfirmAction({
    run: async (row: RoleRow) => {
      // The statuses on `me` lose the role too (spec 1, section 6).
      if (removedFromStatuses(await deleteRole(organizationId, row.key))) await refreshMe();
    },
    onDone: refreshRoles,
  });

  // The cells read the context when they are used: one stable object, refreshed on every render.
  const contextRef = useRef<RolesGridContext | null>(null);
  const privilegeIds = useMemo<Privilege[]>(() => sortPrivileges(privileges.data?.map((privilege) => privilege.id) ?? [...PRIVILEGES]), [privileges.data]);
  const handlers: RolesGridContext = {
    store,
    canEdit,
    privilegeIds,
    onEdit: (row) => rowEditing.start(row, 'editing', draftOf(row)),
    onDuplicate: (row) => rowEditing.start({ ...row, key: rowEditing.newKey(), id: null, type: 'DEFAULT', inUse: false }, 'duplicating', draftOf(row)),
    // The statuses that name the role are read afresh: the warning must not miss one added since sign-in.
    onDelete: (row) => {
      void refreshMe();
      remove.ask(row);
    },
    onSave,
    onCancel: rowEditing.finish,
  };
  if (contextRef.current) Object.assign(contextRef.current, handlers);
  else contextRef.current = handlers;
  const context = contextRef.current;

  const columns = useRoleColumns(canEdit, store);

  const rowStateClasses = rowEditing.rowClassRules;
  const rowClassRules = useMemo<RowClassRules<RoleRow>>(() => ({ ...rowStateClasses, 'row-admin': ({ data }) => data?.type === 'ADMIN' }), [rowStateClasses]);

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
          <InlineAddButton
            busy={session !== null}
            loading={roles.isPending}
            busyTitleId="roles.action.busy"
            labelId="roles.add"
            onClick={onAdd}
            testId="roles-add"
          />
        ) : null}
      </div>

      {!canEdit ? (
        <Alert kind="info" testId="roles-read-only">
          <FormattedMessage id="roles.readOnly" />
        </Alert>
      ) : null}
      {/* A failed list shows its error with a retry in place of the grid (rows loaded before a failed refresh stay). */}
      {roles.isError ? <ListError error={roles.error} title={<FormattedMessage id="roles.loadFailed" />} onRetry={() => void roles.refetch()} /> : null}
      {/* Server codes are marked on the name editor and shown as a toast. */}
      <InlineEditInvalidAlert
        invalid={session?.invalid ?? {}}
        labels={FIELD_LABELS}
        messageId="roles.field.invalid"
        validationOnly
        testId="role-validation-error"
      />

      {/* While a row is edited the other rows are inert: a click there neither focuses nor edits them. */}
      {failedEmpty ? null : (
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
      )}

      <ConfirmActionDialog
        action={remove}
        testId="role-delete-dialog"
        title={<FormattedMessage id="roles.delete.title" />}
        message={(role) => <RoleDeleteQuestion role={role} />}
        confirmLabel={<FormattedMessage id="common.delete" />}
        failedTitle={<FormattedMessage id="roles.delete.failed" />}
        errorTestId="role-delete-error"
      />
    </div>
  );
}

const getRowKey = ({ data }: GetRowIdParams<RoleRow>) => data.key;

/** The delete question, and the warning when statuses name the role as an exception (spec 1, sections 4 and 6). */
function RoleDeleteQuestion({ role }: { role: RoleRow }) {
  const intl = useIntl();
  const me = useCurrentUser();
  const statuses = statusesUsingRole(me.resourceStatuses, role.key, intl.locale, me.organizationLocaleSettings?.language);
  return (
    <>
      <FormattedMessage id="roles.delete.question" values={{ name: role.name }} />
      {statuses.length > 0 ? (
        <span className="role-delete-warning" data-testid="role-delete-statuses-warning">
          <FormattedMessage id="roles.delete.statusesWarning" values={{ statuses: statuses.join(', ') }} />
        </span>
      ) : null}
    </>
  );
}
