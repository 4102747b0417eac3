import type { Classifier, Scheme, SubBudget } from '@eelarve/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColDef, GetRowIdParams, GridApi, GridReadyEvent, IRowNode, RowClassRules, RowSelectionOptions } from 'ag-grid-community';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmActionDialog, useConfirmAction } from '../../components/ConfirmAction';
import { DropdownMenu } from '../../components/DropdownMenu';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useToasts } from '../../components/Toasts';
import { actionsColumn, textComparator } from '../../grid/columns';
import { DataGrid } from '../../grid/DataGrid';
import { moveUnsavedFirst } from '../../grid/inline-edit';
import { InlineAddButton, InlineEditInvalidAlert } from '../../grid/InlineEditParts';
import { useInlineRowEditing } from '../../grid/useInlineRowEditing';
import { useLocale } from '../../i18n/I18nProvider';
import type { MessageKey } from '../../i18n/messages';
import {
  createSubBudget,
  deleteSubBudget,
  deleteSubBudgets,
  fetchClassifierItems,
  fetchSchemePreselections,
  fetchSubBudgets,
  type ImportType,
  type SubBudgetPayload,
  schemeKeys,
  updateSubBudget,
} from './api';
import { ImportModal } from './ImportModal';
import { exportHeaders, exportRows, itemIndex, itemLabel, type SchemeColumn, schemeColumns } from './model';
import { PreselectionsPane } from './PreselectionsPane';
import { SubBudgetActionsCell, SubBudgetClassifierCell, SubBudgetNameCell, type SubBudgetsGridContext } from './SubBudgetCells';
import {
  COMBINATION_FIELD,
  draftOf,
  NAME_FIELD,
  parseSubBudgetDraft,
  rowFromSubBudget,
  selectableItems,
  serverInvalid,
  type SubBudgetDraft,
  SubBudgetEditStore,
  type SubBudgetEditSession,
  type SubBudgetRow,
} from './sub-budget-edit';
import { downloadXlsx } from './xlsx';

interface FilterState {
  selectedOnly: boolean;
  selected: ReadonlySet<string>;
  /** The filter text, lower case ('' for none). */
  text: string;
  rowText: (row: SubBudgetRow) => string;
}

type DeleteTarget = { kind: 'one'; row: SubBudgetRow } | { kind: 'many'; ids: string[] };

/**
 * The selected scheme's sub-budgets on the schemes tab (spec 2, Schemes tab), edited inline as the
 * schemes table (spec 2, section 4): one row at a time; a new or duplicated row is added on top.
 */
export function SubBudgetsPanel({ documentId, scheme, classifiers, canEdit }: { documentId: string; scheme: Scheme | null; classifiers: Classifier[]; canEdit: boolean }) {
  const intl = useIntl();
  const { locale } = useLocale();
  const queryClient = useQueryClient();
  const { showError } = useToasts();
  const schemeId = scheme?.id ?? '';
  const [filter, setFilter] = useState('');
  const [selectedOnly, setSelectedOnly] = useState(false);
  const [selectedIds, setSelectedIds] = useState<string[]>([]);
  const [importMode, setImportMode] = useState<ImportType | null>(null);
  const [configured, setConfigured] = useState<SubBudget | null>(null);
  const [notice, setNotice] = useState<MessageKey | null>(null);
  const gridApi = useRef<GridApi<SubBudgetRow> | null>(null);

  const subBudgets = useQuery({ queryKey: schemeKeys.subBudgets(schemeId), queryFn: () => fetchSubBudgets(schemeId), enabled: schemeId !== '' });
  const columns = useMemo(() => schemeColumns(scheme ?? undefined, classifiers), [scheme, classifiers]);
  const classifierIds = useMemo(() => classifiers.map((classifier) => classifier.id), [classifiers]);
  const items = useQuery({ queryKey: schemeKeys.items(classifierIds), queryFn: () => fetchClassifierItems(classifierIds), enabled: classifierIds.length > 0 });
  const itemsByKey = useMemo(() => itemIndex(items.data?.list ?? []), [items.data]);
  const options = useMemo(() => selectableItems(items.data?.list ?? []), [items.data]);

  const saved = useMemo(() => (subBudgets.data ?? []).map((subBudget) => rowFromSubBudget(subBudget, columns)), [subBudgets.data, columns]);
  const rowEditing = useInlineRowEditing<SubBudgetRow, SubBudgetDraft>({
    createStore: () => new SubBudgetEditStore(),
    saved,
    // The new or duplicated row is added on top: the grid shows its top.
    onStart: (_row, mode) => {
      if (mode !== 'editing') window.requestAnimationFrame(() => gridApi.current?.ensureIndexVisible(0, 'top'));
    },
  });
  const { store, session, rows, finish, submit } = rowEditing;

  useEffect(() => {
    // Another scheme: nothing stays selected, configured or edited.
    void schemeId;
    setSelectedIds([]);
    setConfigured(null);
    setSelectedOnly(false);
    finish();
  }, [schemeId, finish]);

  // The filter and the show-selected-only switch: the edited row always stays visible.
  const filterState = useRef<FilterState>({ selectedOnly: false, selected: new Set(), text: '', rowText: () => '' });
  filterState.current = {
    selectedOnly,
    selected: new Set(selectedIds),
    text: filter.trim().toLocaleLowerCase(locale),
    rowText: (row) =>
      [row.name, ...columns.map((column) => itemLabel(itemsByKey, column.classifierId, row.classifiers[column.classifierId] ?? ''))].join('\u0001').toLocaleLowerCase(locale),
  };
  useEffect(() => {
    void selectedOnly;
    void filter;
    gridApi.current?.onFilterChanged();
  }, [selectedOnly, filter]);
  const isExternalFilterPresent = useCallback(() => filterState.current.selectedOnly || filterState.current.text !== '', []);
  const doesExternalFilterPass = useCallback(
    (node: IRowNode<SubBudgetRow>) => {
      const row = node.data;
      if (!row) return false;
      if (row.key === store.current?.key) return true;
      const state = filterState.current;
      if (state.selectedOnly && !state.selected.has(row.key)) return false;
      return state.text === '' || state.rowText(row).includes(state.text);
    },
    [store],
  );

  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: schemeKeys.subBudgets(schemeId) }), queryClient.invalidateQueries({ queryKey: schemeKeys.list(documentId) })]);

  const save = useMutation({
    mutationFn: ({ editing, payload }: { editing: SubBudgetEditSession; payload: SubBudgetPayload }) =>
      editing.mode === 'editing' ? updateSubBudget(schemeId, editing.key, payload) : createSubBudget(schemeId, payload),
    onSuccess: async (result, { editing }) => {
      await refresh();
      rowEditing.finishSaved(editing, result?.id);
      setNotice('subBudgets.saveSuccess');
    },
    onError: (error) => {
      store.setInvalid(serverInvalid(error, columns));
      showError(error);
    },
  });

  const fields = useMemo(
    () => Object.fromEntries([NAME_FIELD, COMBINATION_FIELD, ...columns.map((column) => column.classifierId)].map((field) => [field, true])) as Record<string, unknown>,
    [columns],
  );
  const onSave = useCallback(
    () =>
      submit({
        parse: (draft) => parseSubBudgetDraft(draft, columns),
        fields,
        send: (editing, payload) => save.mutate({ editing, payload }),
      }),
    [submit, columns, fields, save.mutate],
  );
  const fieldLabel = (field: string) =>
    field === NAME_FIELD
      ? intl.formatMessage({ id: 'subBudgets.column.name' })
      : field === COMBINATION_FIELD
        ? intl.formatMessage({ id: 'subBudgets.column.combination' })
        : (columns.find((column) => column.classifierId === field)?.name ?? field);

  const remove = useConfirmAction({
    run: (target: DeleteTarget) => (target.kind === 'one' ? deleteSubBudget(schemeId, target.row.key) : deleteSubBudgets(schemeId, target.ids)),
    onDone: async (target) => {
      await refresh();
      gridApi.current?.deselectAll();
      if (target.kind === 'one' && configured?.id === target.row.id) setConfigured(null);
      setNotice(target.kind === 'one' ? 'subBudgets.deleteSuccess' : 'subBudgets.deleteMultipleSuccess');
    },
  });

  const exportFile = useMutation({
    mutationFn: async () => {
      if (!scheme) return;
      const presets = await fetchSchemePreselections(scheme.id);
      const byId = new Map(presets.map((entry) => [entry.subBudgetId, entry.preselections]));
      // The shown saved rows (not an unsaved new one).
      const shown: SubBudget[] = [];
      gridApi.current?.forEachNodeAfterFilterAndSort((node) => node.data?.subBudget && shown.push(node.data.subBudget));
      const preselectionColumns = preselectionColumnsOf(classifiers, presets);
      await downloadXlsx(`${scheme.fieldName || 'sub-budgets'}.xlsx`, scheme.name, exportHeaders(columns, preselectionColumns), exportRows(shown, columns, preselectionColumns, byId));
    },
    onError: showError,
  });

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

  const columnDefs = useMemo<ColDef<SubBudgetRow>[]>(() => {
    const text = textComparator(locale);
    // The edited row's keys belong to its editors (typing a space must not select or navigate).
    const suppressKeyboardEvent = ({ data }: { data?: SubBudgetRow }) => data !== undefined && store.current?.key === data.key;
    const definitions: ColDef<SubBudgetRow>[] = [
      {
        colId: 'name',
        field: 'name',
        headerName: intl.formatMessage({ id: 'subBudgets.column.name' }),
        flex: 1.4,
        minWidth: 200,
        sort: 'asc',
        comparator: text,
        cellRenderer: SubBudgetNameCell,
        suppressKeyboardEvent,
      },
      ...columns.map<ColDef<SubBudgetRow>>((column) => ({
        colId: `classifier-${column.classifierId}`,
        headerName: column.type === 'MAIN' ? `${column.name} *` : column.name,
        flex: 1,
        minWidth: 160,
        comparator: text,
        valueGetter: ({ data }) => (data ? itemLabel(itemsByKey, column.classifierId, data.classifiers[column.classifierId] ?? '') : ''),
        headerClass: column.type === 'SECONDARY' ? 'secondary-classifier-header' : undefined,
        cellRenderer: SubBudgetClassifierCell,
        cellRendererParams: { column },
        suppressKeyboardEvent,
      })),
    ];
    definitions.push({
      ...actionsColumn(intl.formatMessage({ id: 'subBudgets.column.actions' }), canEdit ? 180 : 70, SubBudgetActionsCell),
      // Enter and Space press the focused button, not the grid's own keys.
      suppressKeyboardEvent: ({ event }) => (event.key === 'Enter' || event.key === ' ') && event.target instanceof HTMLButtonElement,
    });
    return definitions;
  }, [intl, locale, columns, itemsByKey, canEdit, store]);

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
        ? { mode: 'multiRow', checkboxes: true, headerCheckbox: true, enableClickSelection: false, hideDisabledCheckboxes: true, isRowSelectable: (node) => node.data?.id != null }
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
  const importItems = (['SUB_BUDGETS_WITH_PRESELECTIONS', 'PRESELECTIONS_ONLY'] as const).map((mode) => ({
    key: mode,
    label: <FormattedMessage id={mode === 'PRESELECTIONS_ONLY' ? 'subBudgets.import.preselectionsOnly' : 'subBudgets.import.withPreselections'} />,
    onSelect: () => setImportMode(mode),
    testId: `sub-budgets-import-${mode}`,
  }));

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
      <div className="sub-budgets-toolbar">
        <input
          type="search"
          className="input sub-budgets-filter"
          placeholder={intl.formatMessage({ id: 'subBudgets.filter' })}
          aria-label={intl.formatMessage({ id: 'subBudgets.filter' })}
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          data-testid="sub-budgets-filter"
        />
        <label className="switch-label">
          <input type="checkbox" checked={selectedOnly} onChange={(event) => setSelectedOnly(event.target.checked)} data-testid="sub-budgets-selected-only" />
          <FormattedMessage id="subBudgets.selectedOnly" />
        </label>
        <span className="muted" data-testid="sub-budgets-selected-count">
          <FormattedMessage id="subBudgets.selectedCount" values={{ count: selectedIds.length }} />
        </span>
        <span className="toolbar-spacer" />
        <button type="button" className="button" onClick={() => exportFile.mutate()} disabled={exportFile.isPending || subBudgets.isPending} data-testid="sub-budgets-export">
          <FormattedMessage id="subBudgets.export" />
        </button>
        {canEdit ? (
          <>
            <DropdownMenu label={intl.formatMessage({ id: 'subBudgets.import' })} items={noClassifiers ? [] : importItems} testId="sub-budgets-import">
              <span className="button">
                <FormattedMessage id="subBudgets.import" />
              </span>
            </DropdownMenu>
            <button
              type="button"
              className="button button-danger"
              disabled={selectedIds.length === 0 || session !== null}
              onClick={() => remove.ask({ kind: 'many', ids: selectedIds })}
              data-testid="sub-budgets-delete-selected"
            >
              <FormattedMessage id="subBudgets.deleteSelected" />
            </button>
            <InlineAddButton
              busy={session !== null}
              loading={subBudgets.isPending || noClassifiers}
              busyTitleId="subBudgets.action.busy"
              labelId="subBudgets.add"
              onClick={onAdd}
              testId="sub-budgets-add"
            />
          </>
        ) : null}
      </div>
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
      {subBudgets.isError ? <ErrorAlert error={subBudgets.error} title={<FormattedMessage id="subBudgets.loadFailed" />} /> : null}
      <InlineEditInvalidAlert invalid={session?.invalid ?? {}} labels={fieldLabel} messageId="subBudgets.field.invalid" testId="sub-budget-validation-error" />

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
        isExternalFilterPresent={isExternalFilterPresent}
        doesExternalFilterPass={doesExternalFilterPass}
        rowClassRules={rowClassRules}
        postSortRows={moveUnsavedFirst}
        onGridReady={onGridReady}
      />

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

      <ConfirmActionDialog
        action={remove}
        testId="sub-budget-delete-dialog"
        title={(remove.target?.kind ?? 'one') === 'one' ? <FormattedMessage id="subBudgets.delete.title" /> : <FormattedMessage id="subBudgets.deleteMultiple.title" />}
        message={(target) =>
          target.kind === 'one' ? (
            <FormattedMessage id="subBudgets.delete.question" values={{ name: target.row.name }} />
          ) : (
            <FormattedMessage id="subBudgets.deleteMultiple.question" values={{ count: target.ids.length }} />
          )
        }
        confirmLabel={<FormattedMessage id="common.delete" />}
        failedTitle={<FormattedMessage id="subBudgets.delete.failed" />}
        errorTestId="sub-budget-delete-error"
      />
    </section>
  );
}

const getRowKey = ({ data }: GetRowIdParams<SubBudgetRow>) => data.key;

/** Classifiers that have preselections anywhere in the scheme (the export's extra columns). */
function preselectionColumnsOf(classifiers: readonly Classifier[], presets: ReadonlyArray<{ preselections: Record<string, string[]> }>): SchemeColumn[] {
  const used = new Set(presets.flatMap((entry) => Object.entries(entry.preselections).filter(([, codes]) => codes.length > 0).map(([id]) => id)));
  return classifiers
    .filter((classifier) => used.has(classifier.id))
    .map((classifier) => ({ classifierId: classifier.id, type: 'SECONDARY' as const, fieldName: classifier.fieldName, name: classifier.name }));
}
