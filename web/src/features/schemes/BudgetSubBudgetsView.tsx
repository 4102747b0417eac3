import { hasAnyPrivilege, type ResourceStatusRuleType, type SubBudget } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import type { ColDef, GridApi } from 'ag-grid-community';
import { type ComponentType, useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate, useParams } from 'react-router';
import { errorCodeOf } from '../../api';
import { Alert } from '../../components/Alert';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DropdownMenu } from '../../components/DropdownMenu';
import { useToasts } from '../../components/Toasts';
import { actionsColumn, textComparator } from '../../grid/columns';
import { DataGrid } from '../../grid/DataGrid';
import { ListError } from '../../grid/ListError';
import { useLocale } from '../../i18n/I18nProvider';
import { useCurrentUser } from '../../app/session';
import { canEditSchemes } from '../../app/document/access';
import { access } from '../../app/access';
import { useBudgetPins, useRefreshSubBudgets } from './api/mutations';
import { budgetSubBudgetsQuery, classifierItemsQuery, schemeBudgetQuery, schemeClassifiersQuery } from './api/queries';
import type { ImportType } from './api/requests';
import { ImportModal } from './ImportModal';
import { itemIndex, itemLabel, schemeColumns, classifierValue } from './model';
import { NameLinkCell, PermissionsLinkCell, type PinContext, PinCell, UNFIT_ROW_ID } from './BudgetSubBudgetCells';
import { useBudgetSubBudgetExport } from './sub-budgets/useSubBudgetExport';
import { useBudgetScheme } from './useBudgetScheme';
import './schemes.css';

/** The records feature's actions on this page (records export and import, spec 3 section 2), given by the app's routes. */
export interface RecordActionsProps {
  documentId: string;
  /** The budget as GET api/budget/{id} answers it (with the status rules in force, `restrictions`). */
  budget: { id: string; name: string; permissions: { read: boolean; update: boolean; restrictions?: readonly ResourceStatusRuleType[] } } | undefined;
  scheme: { id: string; name: string } | undefined;
  subBudgets: ReadonlyArray<{ id: string; name: string }> | undefined;
}

/** The sub-budgets tab of a common budget: scheme selector, export, import menu, the scheme's sub-budgets with pin toggles. */
export function BudgetSubBudgetsView({ recordActions: RecordActions }: { recordActions?: ComponentType<RecordActionsProps> } = {}) {
  const { documentId = '', budgetId = '', schemeId: routeSchemeId } = useParams();
  const intl = useIntl();
  const me = useCurrentUser();
  const { locale } = useLocale();
  const navigate = useNavigate();
  const { showError } = useToasts();
  const { schemes, schemesQuery, schemeId, ready } = useBudgetScheme(documentId, budgetId, routeSchemeId);
  const scheme = schemes.find((candidate) => candidate.id === schemeId);
  const [confirmUnpin, setConfirmUnpin] = useState<SubBudget | null>(null);
  const [importMode, setImportMode] = useState<ImportType | null>(null);
  const gridApi = useRef<GridApi<SubBudget> | null>(null);

  const budget = useQuery(schemeBudgetQuery(budgetId));
  const subBudgets = useQuery(budgetSubBudgetsQuery(budgetId, schemeId));
  // Classifier names and item names make the table readable; without the privilege to read them the codes are shown.
  const classifiers = useQuery({ ...schemeClassifiersQuery(documentId), retry: false });
  const columns = useMemo(() => schemeColumns(scheme, classifiers.data ?? []), [scheme, classifiers.data]);
  const classifierIds = useMemo(() => columns.map((column) => column.classifierId), [columns]);
  const items = useQuery({ ...classifierItemsQuery(classifierIds), retry: false });
  const itemsByKey = useMemo(() => itemIndex(items.data?.list ?? []), [items.data]);

  const pin = useBudgetPins(budgetId, schemeId, {
    onSaved: () => setConfirmUnpin(null),
    onError: (error, { pinned, confirmed }) => {
      setConfirmUnpin(null);
      // Records appeared since the list was read: ask, as for a sub-budget known to have records.
      const unpinned = (subBudgets.data ?? []).find((row) => row.pinned && !pinned.includes(row.id));
      if (errorCodeOf(error) === 'SUB_BUDGET_HAS_RECORDS' && !confirmed && unpinned) setConfirmUnpin(unpinned);
      else showError(error);
    },
  });

  const pinnedIds = (subBudgets.data ?? []).filter((row) => row.pinned).map((row) => row.id);
  const canPin = budget.data?.permissions.update ?? false;
  // Spec 2, section 6: the import menu needs budget write (resource statuses do not exist yet); an
  // import adds sub-budgets to the document's scheme, which the server keeps to SCHEMA_ADMIN.
  const canImport = (budget.data?.permissions.update ?? false) && canEditSchemes(me);
  // The file's columns are the classifiers' technical names: without them (or with none) nothing can be read.
  const importReady = scheme !== undefined && classifiers.data !== undefined && columns.length > 0 && subBudgets.data !== undefined;
  const importBlocked = classifiers.isError || (scheme !== undefined && classifiers.data !== undefined && columns.length === 0);
  const refreshAfterImport = useRefreshSubBudgets(documentId, schemeId ?? '');

  const contextRef = useRef<PinContext | null>(null);
  const handlers: PinContext = {
    canPin,
    busy: pin.isPending,
    // Spec 3, section 2: records/{subBudgetId} under the scheme's sub-budgets.
    recordsPath: hasAnyPrivilege(me.privileges, 'DATA_VIEW')
      ? (subBudgetId) => `/document/${documentId}/budget/${budgetId}/sub-budgets/${schemeId}/records/${subBudgetId}`
      : undefined,
    permissionsPath: access.users(me)
      ? (subBudgetId) => `/users/budget-permissions?${new URLSearchParams({ documentId, schemaId: schemeId ?? '', budgetId, subBudgetId }).toString()}`
      : undefined,
    onToggle: (row) => {
      if (!row.pinned) pin.mutate({ pinned: [...pinnedIds, row.id], confirmed: false });
      else if (row.hasRecords) setConfirmUnpin(row);
      else pin.mutate({ pinned: pinnedIds.filter((id) => id !== row.id), confirmed: false });
    },
  };
  if (contextRef.current) Object.assign(contextRef.current, handlers);
  else contextRef.current = handlers;
  // The pin cells read canPin and busy from the grid's context, which the grid does not watch:
  // rows drawn before the budget's permissions arrived kept their pins disabled.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the cells are drawn again whenever what they read changes.
  useEffect(() => {
    const api = gridApi.current;
    if (api && !api.isDestroyed()) api.refreshCells({ columns: ['pinned'], force: true });
  }, [canPin, pin.isPending]);

  const columnDefs = useMemo<ColDef<SubBudget>[]>(() => {
    const text = textComparator(locale);
    // The row of records fitting no sub-budget (-2) stays last, whichever way the names are sorted.
    const byName: ColDef<SubBudget>['comparator'] = (a, b, nodeA, nodeB, isDescending) => {
      const unfitA = nodeA?.data?.id === UNFIT_ROW_ID;
      const unfitB = nodeB?.data?.id === UNFIT_ROW_ID;
      if (unfitA !== unfitB) return (unfitA ? 1 : -1) * (isDescending ? -1 : 1);
      return text(a, b);
    };
    return [
      {
        colId: 'pinned',
        field: 'pinned',
        headerName: intl.formatMessage({ id: 'subBudgets.column.pinned' }),
        width: 120,
        cellRenderer: PinCell,
      },
      {
        colId: 'name',
        field: 'name',
        headerName: intl.formatMessage({ id: 'subBudgets.column.name' }),
        flex: 1.4,
        minWidth: 220,
        sort: 'asc',
        comparator: byName,
        cellRenderer: NameLinkCell,
      },
      ...columns.map<ColDef<SubBudget>>((column) => ({
        colId: `classifier-${column.classifierId}`,
        headerName: column.name,
        flex: 1,
        minWidth: 160,
        comparator: text,
        valueGetter: ({ data }) => (data ? itemLabel(itemsByKey, column.classifierId, classifierValue(data, column)) : ''),
      })),
      { colId: 'records', field: 'recordsCount', headerName: intl.formatMessage({ id: 'subBudgets.column.records' }), width: 120 },
      ...(access.users(me) ? [actionsColumn<SubBudget>(intl.formatMessage({ id: 'permissions.tab.permissions' }), 90, PermissionsLinkCell)] : []),
    ];
  }, [intl, locale, columns, itemsByKey, me]);

  const exportFile = useBudgetSubBudgetExport(budget.data?.name, scheme, columns, gridApi);

  const importItems = (['SUB_BUDGETS_WITH_PRESELECTIONS', 'PRESELECTIONS_ONLY'] as const).map((mode) => ({
    key: mode,
    label: <FormattedMessage id={mode === 'PRESELECTIONS_ONLY' ? 'subBudgets.import.preselectionsOnly' : 'subBudgets.import.withPreselections'} />,
    onSelect: () => setImportMode(mode),
    testId: `budget-sub-budgets-import-${mode}`,
  }));

  if (budget.data && budget.data.type !== 'COMMON') {
    return (
      <Alert kind="info" testId="budget-sub-budgets-not-common">
        <FormattedMessage id="budgetSubBudgets.notCommon" />
      </Alert>
    );
  }

  return (
    <div className="budget-sub-budgets-tab" data-testid="budget-sub-budgets-tab">
      {schemesQuery.isError ? (
        <ListError
          error={schemesQuery.error}
          title={<FormattedMessage id="schemes.loadFailed" />}
          onRetry={() => void schemesQuery.refetch()}
          testId="budget-schemes-load-error"
        />
      ) : null}
      {ready && schemes.length === 0 ? (
        <Alert kind="info" testId="budget-sub-budgets-no-schemes">
          <FormattedMessage id="budgetSubBudgets.noSchemes" />
        </Alert>
      ) : null}
      <div className="budget-sub-budgets-toolbar">
        <label className="switch-label">
          <FormattedMessage id="budgetSubBudgets.scheme" />
          <select
            value={schemeId ?? ''}
            onChange={(event) => navigate(`/document/${documentId}/budget/${budgetId}/sub-budgets/${event.target.value}`)}
            data-testid="budget-scheme-select"
            disabled={schemes.length === 0}
          >
            {schemes.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.name}
              </option>
            ))}
          </select>
        </label>
        <span className="toolbar-spacer" />
        <button
          type="button"
          className="button"
          onClick={() => exportFile.mutate()}
          disabled={!scheme || exportFile.isPending}
          data-testid="budget-sub-budgets-export"
        >
          <FormattedMessage id="subBudgets.export" />
        </button>
        {RecordActions ? <RecordActions documentId={documentId} budget={budget.data} scheme={scheme} subBudgets={subBudgets.data} /> : null}
        {canImport ? (
          importReady ? (
            <DropdownMenu label={intl.formatMessage({ id: 'subBudgets.import' })} items={importItems} testId="budget-sub-budgets-import">
              <span className="button">
                <FormattedMessage id="subBudgets.import" />
              </span>
            </DropdownMenu>
          ) : (
            <span
              title={importBlocked ? intl.formatMessage({ id: 'budgetSubBudgets.importUnavailable' }) : undefined}
              data-testid="budget-sub-budgets-import-unavailable"
            >
              <button type="button" className="button" disabled>
                <FormattedMessage id="subBudgets.import" />
              </button>
            </span>
          )
        ) : null}
      </div>
      {subBudgets.isError ? (
        <ListError
          error={subBudgets.error}
          title={<FormattedMessage id="subBudgets.loadFailed" />}
          onRetry={() => void subBudgets.refetch()}
          testId="budget-sub-budgets-load-error"
        />
      ) : null}
      {scheme && !subBudgets.isError ? (
        <DataGrid<SubBudget>
          key={scheme.id}
          testId="budget-sub-budgets-grid"
          rowData={subBudgets.isPending ? null : (subBudgets.data ?? [])}
          loading={subBudgets.isPending}
          columnDefs={columnDefs}
          context={contextRef.current}
          getRowId={({ data }) => data.id}
          onGridReady={(event) => {
            gridApi.current = event.api;
          }}
        />
      ) : null}
      {importMode && scheme ? (
        <ImportModal
          schemeId={scheme.id}
          mode={importMode}
          columns={columns}
          existing={subBudgets.data ?? []}
          onClose={() => setImportMode(null)}
          onImported={async () => {
            await refreshAfterImport();
            setImportMode(null);
          }}
        />
      ) : null}
      {confirmUnpin ? (
        <ConfirmDialog
          testId="budget-unpin-dialog"
          title={<FormattedMessage id="budgetSubBudgets.unpin.title" />}
          message={<FormattedMessage id="budgetSubBudgets.unpin.question" values={{ name: confirmUnpin.name }} />}
          confirmLabel={<FormattedMessage id="budgetSubBudgets.unpin.confirm" />}
          busy={pin.isPending}
          danger
          onCancel={() => setConfirmUnpin(null)}
          onConfirm={() => pin.mutate({ pinned: pinnedIds.filter((id) => id !== confirmUnpin.id), confirmed: true })}
        />
      ) : null}
    </div>
  );
}
