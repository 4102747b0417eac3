import { hasAnyPrivilege, type Occupation, type PermissionInput } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import type { ColDef, GridApi } from 'ag-grid-community';
import { useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../app/session';
import { Alert } from '../../components/Alert';
import { SelectField } from '../../components/form';
import { useToasts } from '../../components/Toasts';
import { DataGrid } from '../../grid/DataGrid';
import { GridToolbar } from '../../grid/GridToolbar';
import { ListError } from '../../grid/ListError';
import { useGridSearch } from '../../grid/search';
import { documentPermissionsQuery, useChangePermissions, useDocumentBudgets, useOccupations } from './api';
import { DocumentSchemeSelects, useDocumentAndScheme } from './DocumentSchemeSelects';
import { type GrantAction, type GrantGridContext, type GrantRow, grantColumns } from './GrantCells';
import { allUpdate, bulkChange, grantsByOccupation, NO_GRANT, readChange, toggleState, updateChange } from './grants';
import { ResourceNameCell, type TreeGridContext, type TreeRowData } from './ResourceNameCell';
import { useOpenSubBudgets, useQueryStringSelections } from './selection';
import { filterTree, flattenTree, rowIdOf } from './tree';
import { useResourceFromUrl } from './useResourceFromUrl';
import './permissions.css';

interface OccupationRow extends GrantRow {
  userName: string;
}

type TreeContext = TreeGridContext<TreeRowData>;
type TableContext = GrantGridContext<OccupationRow> & { onBulk: () => void };

const ALL = '';
const occupationTexts = (row: OccupationRow) => [row.label, row.userName];

/**
 * /users/budget-permissions (spec 1 section 2, spec 2 section 6): a document and scheme select, an
 * occupation filter, the resource tree organisation → document → budget → sub-budget, and for the
 * resource chosen in it every occupation's read and update (a table with its own search).
 * documentId and schemaId default to the first; budgetId and subBudgetId (the sub-budget
 * permissions button's link) choose and scroll to that resource, then leave the URL.
 */
export function BudgetPermissionsTab() {
  const me = useCurrentUser();
  const intl = useIntl();
  const { showError } = useToasts();
  const organizationId = me.organizationId ?? '';
  const canEdit = hasAnyPrivilege(me.privileges, 'USER_ADMIN');
  const [params, setParams] = useSearchParams();
  const [openBudgetIds, setOpenBudgetIds] = useState<ReadonlySet<string>>(new Set());
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [occupationFilter, setOccupationFilter] = useState(ALL);
  const treeApi = useRef<GridApi<TreeRowData> | null>(null);

  const occupations = useOccupations(organizationId);
  const selection = useDocumentAndScheme(organizationId, params);
  const { documents, documentId, schemes, schemeId } = selection;
  useQueryStringSelections({ documentId, schemaId: schemeId });

  const budgets = useDocumentBudgets(documentId ?? '');
  const subBudgets = useOpenSubBudgets(openBudgetIds, schemeId);
  const grants = useQuery(documentPermissionsQuery(documentId ?? ''));
  const grantsOf = useMemo(() => grantsByOccupation(grants.data ?? []), [grants.data]);

  const document = documents.data?.find((candidate) => candidate.id === documentId);
  const allRows = useMemo(
    () =>
      flattenTree({
        organizationName: me.organizationName ?? '',
        documents: document ? [document] : [],
        documentId: documentId ?? null,
        budgets: budgets.data?.map((budget) => ({ id: budget.id, name: budget.name, holdsSubBudgets: budget.type === 'COMMON' })),
        subBudgets,
        openBudgetIds,
        schemeChosen: Boolean(schemeId),
      }),
    [me.organizationName, document, documentId, budgets.data, subBudgets, openBudgetIds, schemeId],
  );
  // The chosen resource: the one clicked (or named in the URL) while it is in the tree, otherwise the document.
  const selected = allRows.find((row) => row.id === selectedId) ?? allRows.find((row) => row.kind === 'document');
  // The occupation filter keeps the resources the occupation reads (given there or above), with their path.
  const treeRows = useMemo<TreeRowData[]>(() => {
    const filter = grantsOf.get(occupationFilter);
    const shown = occupationFilter === ALL ? allRows : filterTree(allRows, (row) => toggleState(filter?.(row.resource) ?? NO_GRANT).read);
    return shown.map((tree) => ({ id: tree.id, tree, selected: tree.id === selected?.id }));
  }, [allRows, grantsOf, occupationFilter, selected?.id]);

  useResourceFromUrl({
    treeApi,
    openBudget: (budgetId) => setOpenBudgetIds((current) => new Set(current).add(budgetId)),
    select: setSelectedId,
    rowIdOf: (budgetId, subBudgetId) => rowIdOf({ documentId: documentId ?? null, budgetId, subBudgetId }),
  });

  const change = useChangePermissions({ onError: showError });
  const editable = canEdit && !change.isPending;
  const tableRows = useMemo<OccupationRow[]>(
    () =>
      (occupations.data ?? [])
        .filter((occupation) => occupationFilter === ALL || occupation.id === occupationFilter)
        .map((occupation: Occupation) => ({
          id: occupation.id,
          label: occupation.name,
          userName: occupation.userName,
          grant: selected ? (grantsOf.get(occupation.id)?.(selected.resource) ?? NO_GRANT) : NO_GRANT,
          editable: editable && selected !== undefined,
          holdsAll: occupation.type === 'ADMIN',
        })),
    [occupations.data, occupationFilter, selected, grantsOf, editable],
  );
  const { search, setSearch, rows: shownOccupations } = useGridSearch(tableRows, occupationTexts);

  const send = (changes: { occupationId: string; permissions: PermissionInput[] }[]) => {
    const nonEmpty = changes.filter((entry) => entry.permissions.length > 0);
    if (nonEmpty.length > 0) change.mutate(nonEmpty);
  };
  // A grant inherited from above the chosen resource stays: only what is given on it can be removed.
  const grantable = shownOccupations.filter((row) => !row.holdsAll);
  const bulk = selected
    ? grantable.map((row) => ({
        occupationId: row.id,
        permissions: bulkChange([{ resource: selected.resource, grant: row.grant }], (entry) => entry.grant.inherited.read || entry.grant.inherited.update),
      }))
    : [];
  const allHaveUpdate = allUpdate(grantable.map((row) => row.grant));
  const bulkEmpty = bulk.every((entry) => entry.permissions.length === 0);

  const treeContext = useRef<TreeContext | null>(null);
  const treeHandlers: TreeContext = {
    onOpen: (row, open) =>
      setOpenBudgetIds((current) => {
        const next = new Set(current);
        if (open) next.add(row.tree.resource.budgetId ?? '');
        else next.delete(row.tree.resource.budgetId ?? '');
        return next;
      }),
    onSelect: (row) => setSelectedId(row.id),
  };
  treeContext.current = Object.assign(treeContext.current ?? {}, treeHandlers);

  const tableContext = useRef<TableContext | null>(null);
  const tableHandlers: TableContext = {
    onToggle: (row: OccupationRow, action: GrantAction, checked: boolean) => {
      if (!selected) return;
      const permission = action === 'read' ? readChange(selected.resource, checked) : updateChange(selected.resource, checked, toggleState(row.grant));
      send([{ occupationId: row.id, permissions: [permission] }]);
    },
    onBulk: () => send(bulk),
  };
  tableContext.current = Object.assign(tableContext.current ?? {}, tableHandlers);

  const treeColumns = useMemo<ColDef<TreeRowData>[]>(
    () => [{ colId: 'resource', headerName: intl.formatMessage({ id: 'permissions.tree.label' }), flex: 1, sortable: false, cellRenderer: ResourceNameCell }],
    [intl],
  );
  const tableColumns = useMemo<ColDef<OccupationRow>[]>(
    () => [
      { colId: 'occupation', field: 'label', headerName: intl.formatMessage({ id: 'permissions.column.occupation' }), flex: 1, minWidth: 160 },
      { colId: 'user', field: 'userName', headerName: intl.formatMessage({ id: 'permissions.column.user' }), flex: 1, minWidth: 140 },
      ...grantColumns<OccupationRow>(
        { read: intl.formatMessage({ id: 'permissions.column.read' }), update: intl.formatMessage({ id: 'permissions.column.update' }) },
        {
          checked: allHaveUpdate,
          disabled: !editable || bulkEmpty,
          title: intl.formatMessage({
            id: allHaveUpdate ? (bulkEmpty ? 'permissions.header.nothingToRemove' : 'permissions.header.removeAll') : 'permissions.header.grantAll',
          }),
          onToggle: () => tableContext.current?.onBulk(),
          testId: 'budget-permissions-header-toggle',
        },
      ),
    ],
    [intl, allHaveUpdate, editable, bulkEmpty],
  );

  const chooseDocumentOrScheme = (key: 'documentId' | 'schemaId', value: string) => {
    setSelectedId(null);
    setOpenBudgetIds(new Set());
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(key, value);
        if (key === 'documentId') next.delete('schemaId');
        return next;
      },
      { replace: true },
    );
  };
  const tableLoading = occupations.isPending || (grants.isPending && Boolean(documentId));
  const failed = [occupations, documents, grants, budgets, schemes].find((query) => query.isError);

  return (
    <section className="budget-permissions-tab" data-testid="budget-permissions-tab">
      <div className="permissions-toolbar">
        <DocumentSchemeSelects selection={selection} onChoose={chooseDocumentOrScheme} testIdPrefix="budget-permissions" />
        <SelectField
          labelId="permissions.field.occupationFilter"
          value={occupationFilter}
          onChange={setOccupationFilter}
          options={[
            { value: ALL, label: intl.formatMessage({ id: 'permissions.occupationFilter.all' }) },
            ...(occupations.data ?? []).map((occupation) => ({ value: occupation.id, label: `${occupation.name} (${occupation.userName})` })),
          ]}
          testId="budget-permissions-occupation-filter"
        />
      </div>
      {documents.data?.length === 0 ? (
        <Alert kind="info" testId="budget-permissions-no-documents">
          <FormattedMessage id="permissions.noDocuments" />
        </Alert>
      ) : null}
      {failed ? (
        <ListError
          error={failed.error}
          title={<FormattedMessage id="permissions.loadFailed" />}
          onRetry={() => void failed.refetch()}
          testId="permissions-load-error"
        />
      ) : null}
      <div className="budget-permissions-panes">
        <DataGrid<TreeRowData>
          testId="budget-permissions-tree"
          height="60vh"
          rowData={documents.isPending ? null : treeRows}
          getRowId={({ data }) => data.id}
          columnDefs={treeColumns}
          context={treeContext.current}
          rowClassRules={{ 'resource-selected': ({ data }) => data?.selected === true }}
          onGridReady={({ api }) => {
            treeApi.current = api;
          }}
        />
        <div className="budget-permissions-table">
          <h2 className="permissions-heading" data-testid="budget-permissions-selected">
            {selected ? (
              <FormattedMessage id="permissions.selected.title" values={{ name: selected.name }} />
            ) : (
              <FormattedMessage id="permissions.selected.none" />
            )}
          </h2>
          <GridToolbar searchLabel="permissions.search" search={search} onSearch={setSearch} searchTestId="budget-permissions-search" />
          <DataGrid<OccupationRow>
            testId="budget-permissions-grid"
            height="calc(60vh - 96px)"
            rowData={tableLoading ? null : shownOccupations}
            loading={tableLoading}
            getRowId={({ data }) => data.id}
            columnDefs={tableColumns}
            context={tableContext.current}
          />
        </div>
      </div>
    </section>
  );
}
