import type { Classifier, Scheme, SubBudget } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import type { GetRowIdParams, GridApi, GridReadyEvent, RowClassRules, RowSelectionOptions } from 'ag-grid-community';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { DataGrid } from '../../grid/DataGrid';
import { moveUnsavedFirst } from '../../grid/inline-edit';
import { InlineEditInvalidAlert } from '../../grid/InlineEditParts';
import { ListError } from '../../grid/ListError';
import type { MessageKey } from '../../i18n/messages';
import { useDeleteSubBudgets, useRefreshSubBudgets } from './api/mutations';
import { classifierItemsQuery, subBudgetsQuery } from './api/queries';
import type { ImportType } from './api/requests';
import { ImportModal } from './ImportModal';
import { itemIndex, schemeColumns } from './model';
import { PreselectionsPane } from './PreselectionsPane';
import type { SubBudgetsGridContext } from './SubBudgetCells';
import { draftOf, selectableItems, type SubBudgetRow } from './sub-budget-edit';
import { SubBudgetDeleteDialog } from './sub-budgets/SubBudgetDeleteDialog';
import { SubBudgetsToolbar } from './sub-budgets/SubBudgetsToolbar';
import { useSubBudgetColumns } from './sub-budgets/useSubBudgetColumns';
import { useSubBudgetEditing } from './sub-budgets/useSubBudgetEditing';
import { useSubBudgetExport } from './sub-budgets/useSubBudgetExport';
import { useSubBudgetFilter } from './sub-budgets/useSubBudgetFilter';

/**
 * The selected scheme's sub-budgets on the schemes tab (spec 2, Schemes tab), edited inline as the
 * schemes table (spec 2, section 4): one row at a time; a new or duplicated row is added on top.
 */
export function SubBudgetsPanel({
  documentId,
  scheme,
  classifiers,
  canEdit,
}: {
  documentId: string;
  scheme: Scheme | null;
  classifiers: Classifier[];
  canEdit: boolean;
}) {
  const intl = useIntl();
  const schemeId = scheme?.id ?? '';
  const [selectedIds, setSelectedIds] = useState<string[]>([]);
  const [importMode, setImportMode] = useState<ImportType | null>(null);
  const [configured, setConfigured] = useState<SubBudget | null>(null);
  const [notice, setNotice] = useState<MessageKey | null>(null);
  const gridApi = useRef<GridApi<SubBudgetRow> | null>(null);

  const subBudgets = useQuery(subBudgetsQuery(schemeId));
  const columns = useMemo(() => schemeColumns(scheme ?? undefined, classifiers), [scheme, classifiers]);
  const classifierIds = useMemo(() => classifiers.map((classifier) => classifier.id), [classifiers]);
  const items = useQuery(classifierItemsQuery(classifierIds));
  const itemsByKey = useMemo(() => itemIndex(items.data?.list ?? []), [items.data]);
  const options = useMemo(() => selectableItems(items.data?.list ?? []), [items.data]);

  const { rowEditing, onSave, fieldLabel } = useSubBudgetEditing({
    documentId,
    schemeId,
    subBudgets: subBudgets.data,
    columns,
    gridApi,
    onSaved: () => setNotice('subBudgets.saveSuccess'),
  });
  const { store, session, rows, finish } = rowEditing;
  const editedKey = useCallback(() => store.current?.key, [store]);
  const isEdited = useCallback((row: SubBudgetRow) => store.current?.key === row.key, [store]);
  const filter = useSubBudgetFilter({ gridApi, columns, itemsByKey, selectedIds, editedKey });
  const { setSelectedOnly } = filter;

  useEffect(() => {
    // Another scheme: nothing stays selected, configured or edited.
    void schemeId;
    setSelectedIds([]);
    setConfigured(null);
    setSelectedOnly(false);
    finish();
  }, [schemeId, finish, setSelectedOnly]);

  const refresh = useRefreshSubBudgets(documentId, schemeId);
  const remove = useDeleteSubBudgets<SubBudgetRow>(documentId, schemeId, (target) => {
    gridApi.current?.deselectAll();
    if (target.kind === 'one' && configured?.id === target.row.id) setConfigured(null);
    setNotice(target.kind === 'one' ? 'subBudgets.deleteSuccess' : 'subBudgets.deleteMultipleSuccess');
  });
  const exportFile = useSubBudgetExport(scheme, columns, classifiers, gridApi);

  const contextRef = useRef<SubBudgetsGridContext | null>(null);
  const handlers: SubBudgetsGridContext = {
    store,
    canEdit,
    options,
    onConfigure: (row) => row.subBudget && setConfigured(row.subBudget),
    onEdit: (row) => rowEditing.start(row, 'editing', draftOf(row, columns)),
    onDuplicate: (row) => {
      const name = intl.formatMessage({ id: 'subBudgets.copyName' }, { name: row.name });
      rowEditing.start({ ...row, key: rowEditing.newKey(), id: null, name, hasRecords: false, subBudget: null }, 'duplicating', draftOf(row, columns, name));
    },
    onDelete: (row) => remove.ask({ kind: 'one', row }),
    onSave,
    onCancel: finish,
  };
  if (contextRef.current) Object.assign(contextRef.current, handlers);
  else contextRef.current = handlers;

  const columnDefs = useSubBudgetColumns({ columns, itemsByKey, canEdit, isEdited });
  const rowStateClasses = rowEditing.rowClassRules;
  const configuredId = configured?.id ?? null;
  const rowClassRules = useMemo<RowClassRules<SubBudgetRow>>(
    () => ({ ...rowStateClasses, 'row-configured': ({ data }) => data !== undefined && data.id !== null && data.id === configuredId }),
    [rowStateClasses, configuredId],
  );

  // Only saved rows can be selected (for the bulk delete and the show-selected-only switch).
  const rowSelection = useMemo<RowSelectionOptions<SubBudgetRow> | undefined>(
    () =>
      canEdit
        ? {
            mode: 'multiRow',
            checkboxes: true,
            headerCheckbox: true,
            enableClickSelection: false,
            hideDisabledCheckboxes: true,
            isRowSelectable: (node) => node.data?.id != null,
          }
        : undefined,
    [canEdit],
  );

  const onGridReady = useCallback((event: GridReadyEvent<SubBudgetRow>) => {
    gridApi.current = event.api;
  }, []);

  if (!scheme) {
    return (
      <section className="sub-budgets-panel" data-testid="sub-budgets-panel">
        <p className="muted">
          <FormattedMessage id="subBudgets.noScheme" />
        </p>
      </section>
    );
  }

  const noClassifiers = columns.length === 0;
  const onAdd = () => {
    const row: SubBudgetRow = { key: rowEditing.newKey(), id: null, name: '', classifiers: {}, hasRecords: false, subBudget: null };
    rowEditing.start(row, 'new', draftOf(row, columns));
  };

  return (
    <section className="sub-budgets-panel" data-testid="sub-budgets-panel">
      <div className="sub-budgets-header">
        <h3 className="section-title">
          <FormattedMessage id="subBudgets.title" values={{ name: scheme.name }} />
        </h3>
      </div>
      <SubBudgetsToolbar
        filter={filter.filter}
        onFilter={filter.setFilter}
        selectedOnly={filter.selectedOnly}
        onSelectedOnly={setSelectedOnly}
        selectedCount={selectedIds.length}
        canEdit={canEdit}
        noClassifiers={noClassifiers}
        loading={subBudgets.isPending}
        editing={session !== null}
        exporting={exportFile.isPending}
        onExport={() => exportFile.mutate()}
        onImport={setImportMode}
        onDeleteSelected={() => remove.ask({ kind: 'many', ids: selectedIds })}
        onAdd={onAdd}
      />
      {noClassifiers ? (
        <p className="muted" data-testid="sub-budgets-no-classifiers">
          <FormattedMessage id="subBudgets.noClassifiers" />
        </p>
      ) : null}
      {notice ? (
        <p className="notice-success" role="status" data-testid="sub-budgets-notice">
          <FormattedMessage id={notice} />
        </p>
      ) : null}
      <InlineEditInvalidAlert invalid={session?.invalid ?? {}} labels={fieldLabel} messageId="subBudgets.field.invalid" testId="sub-budget-validation-error" />

      {subBudgets.isError ? (
        <ListError
          error={subBudgets.error}
          title={<FormattedMessage id="subBudgets.loadFailed" />}
          onRetry={() => void subBudgets.refetch()}
          testId="sub-budgets-load-error"
        />
      ) : (
        <DataGrid<SubBudgetRow>
          key={schemeId}
          testId="sub-budgets-grid"
          height={configured ? 300 : 420}
          rowData={subBudgets.isPending ? null : rows}
          loading={subBudgets.isPending}
          columnDefs={columnDefs}
          context={contextRef.current}
          getRowId={getRowKey}
          rowSelection={rowSelection}
          onSelectionChanged={({ api }) => setSelectedIds(api.getSelectedRows().flatMap((row) => (row.id === null ? [] : [row.id])))}
          isExternalFilterPresent={filter.isExternalFilterPresent}
          doesExternalFilterPass={filter.doesExternalFilterPass}
          rowClassRules={rowClassRules}
          postSortRows={moveUnsavedFirst}
          onGridReady={onGridReady}
        />
      )}

      {configured ? (
        <PreselectionsPane
          key={configured.id}
          subBudget={configured}
          classifiers={classifiers}
          items={items.data?.list ?? []}
          canEdit={canEdit}
          onClose={() => setConfigured(null)}
        />
      ) : null}

      {importMode ? (
        <ImportModal
          schemeId={schemeId}
          mode={importMode}
          columns={columns}
          existing={subBudgets.data ?? []}
          onClose={() => setImportMode(null)}
          onImported={async () => {
            await refresh();
            setImportMode(null);
          }}
        />
      ) : null}

      <SubBudgetDeleteDialog action={remove} />
    </section>
  );
}

const getRowKey = ({ data }: GetRowIdParams<SubBudgetRow>) => data.key;
