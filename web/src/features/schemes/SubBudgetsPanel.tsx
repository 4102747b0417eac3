import type { Classifier, Scheme, SubBudget } from '@eelarve/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColDef, GridApi, GridReadyEvent, ICellRendererParams, IRowNode, RowClassRules } from 'ag-grid-community';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmActionDialog, useConfirmAction } from '../../components/ConfirmAction';
import { DropdownMenu } from '../../components/DropdownMenu';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PlusIcon } from '../../components/icons';
import { useToasts } from '../../components/Toasts';
import { actionsColumn, textComparator } from '../../grid/columns';
import { DataGrid } from '../../grid/DataGrid';
import { useRowHighlight } from '../../grid/useInlineRowEditing';
import { useLocale } from '../../i18n/I18nProvider';
import type { MessageKey } from '../../i18n/messages';
import { IconAction } from '../roles/IconAction';
import { CopyIcon, EditIcon, TrashIcon } from '../roles/icons';
import { deleteSubBudget, deleteSubBudgets, fetchClassifierItems, fetchSchemePreselections, fetchSubBudgets, type ImportType, schemeKeys } from './api';
import { ImportModal } from './ImportModal';
import { exportHeaders, exportRows, itemIndex, itemLabel, type SchemeColumn, schemeColumns, classifierValue } from './model';
import { PreselectionsPane } from './PreselectionsPane';
import { SubBudgetModal } from './SubBudgetModal';
import { downloadXlsx } from './xlsx';

interface PanelContext {
  canEdit: boolean;
  onEdit: (row: SubBudget) => void;
  onDuplicate: (row: SubBudget) => void;
  onConfigure: (row: SubBudget) => void;
  onDelete: (row: SubBudget) => void;
}

type DeleteTarget = { kind: 'one'; row: SubBudget } | { kind: 'many'; ids: string[] };

/** The selected scheme's sub-budgets on the schemes tab (spec 2, Schemes tab). */
export function SubBudgetsPanel({ documentId, scheme, classifiers, canEdit }: { documentId: string; scheme: Scheme | null; classifiers: Classifier[]; canEdit: boolean }) {
  const intl = useIntl();
  const { locale } = useLocale();
  const queryClient = useQueryClient();
  const { showError } = useToasts();
  const schemeId = scheme?.id ?? '';
  const [filter, setFilter] = useState('');
  const [selectedOnly, setSelectedOnly] = useState(false);
  const [selectedIds, setSelectedIds] = useState<string[]>([]);
  const [form, setForm] = useState<{ row: SubBudget | null; copyOf?: SubBudget } | null>(null);
  const [importMode, setImportMode] = useState<ImportType | null>(null);
  const [configured, setConfigured] = useState<SubBudget | null>(null);
  const { highlighted, highlight } = useRowHighlight();
  const [notice, setNotice] = useState<MessageKey | null>(null);
  const gridApi = useRef<GridApi<SubBudget> | null>(null);
  const selectedOnlyRef = useRef(false);
  const selectedRef = useRef<ReadonlySet<string>>(new Set());

  const subBudgets = useQuery({ queryKey: schemeKeys.subBudgets(schemeId), queryFn: () => fetchSubBudgets(schemeId), enabled: schemeId !== '' });
  const columns = useMemo(() => schemeColumns(scheme ?? undefined, classifiers), [scheme, classifiers]);
  const classifierIds = useMemo(() => classifiers.map((classifier) => classifier.id), [classifiers]);
  const items = useQuery({ queryKey: schemeKeys.items(classifierIds), queryFn: () => fetchClassifierItems(classifierIds), enabled: classifierIds.length > 0 });
  const itemsByKey = useMemo(() => itemIndex(items.data?.list ?? []), [items.data]);

  useEffect(() => {
    // Another scheme: nothing stays selected or configured.
    void schemeId;
    setSelectedIds([]);
    setConfigured(null);
    setSelectedOnly(false);
  }, [schemeId]);

  selectedOnlyRef.current = selectedOnly;
  selectedRef.current = useMemo(() => new Set(selectedIds), [selectedIds]);
  useEffect(() => {
    void selectedOnly;
    gridApi.current?.onFilterChanged();
  }, [selectedOnly]);

  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: schemeKeys.subBudgets(schemeId) }), queryClient.invalidateQueries({ queryKey: schemeKeys.list(documentId) })]);

  const remove = useConfirmAction({
    run: (target: DeleteTarget) => (target.kind === 'one' ? deleteSubBudget(schemeId, target.row.id) : deleteSubBudgets(schemeId, target.ids)),
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
      const shown: SubBudget[] = [];
      gridApi.current?.forEachNodeAfterFilterAndSort((node) => node.data && shown.push(node.data));
      const preselectionColumns = preselectionColumnsOf(classifiers, presets);
      await downloadXlsx(`${scheme.fieldName || 'sub-budgets'}.xlsx`, scheme.name, exportHeaders(columns, preselectionColumns), exportRows(shown, columns, preselectionColumns, byId));
    },
    onError: showError,
  });

  const contextRef = useRef<PanelContext | null>(null);
  const handlers: PanelContext = {
    canEdit,
    onEdit: (row) => setForm({ row }),
    onDuplicate: (row) => setForm({ row: null, copyOf: row }),
    onConfigure: (row) => setConfigured(row),
    onDelete: (row) => remove.ask({ kind: 'one', row }),
  };
  if (contextRef.current) Object.assign(contextRef.current, handlers);
  else contextRef.current = handlers;

  const columnDefs = useMemo<ColDef<SubBudget>[]>(() => {
    const text = textComparator(locale);
    const definitions: ColDef<SubBudget>[] = [
      {
        colId: 'name',
        field: 'name',
        headerName: intl.formatMessage({ id: 'subBudgets.column.name' }),
        flex: 1.4,
        minWidth: 200,
        sort: 'asc',
        comparator: text,
        cellRenderer: SubBudgetNameCell,
      },
      ...columns.map<ColDef<SubBudget>>((column) => ({
        colId: `classifier-${column.classifierId}`,
        headerName: column.name,
        flex: 1,
        minWidth: 160,
        comparator: text,
        valueGetter: ({ data }) => (data ? itemLabel(itemsByKey, column.classifierId, classifierValue(data, column)) : ''),
        headerClass: column.type === 'SECONDARY' ? 'secondary-classifier-header' : undefined,
      })),
    ];
    if (canEdit) definitions.push(actionsColumn(intl.formatMessage({ id: 'subBudgets.column.actions' }), 180, SubBudgetActionsCell));
    else definitions.push(actionsColumn(intl.formatMessage({ id: 'subBudgets.column.actions' }), 70, SubBudgetActionsCell));
    return definitions;
  }, [intl, locale, columns, itemsByKey, canEdit]);

  const rowClassRules = useMemo<RowClassRules<SubBudget>>(
    () => ({
      'row-highlighted': ({ data }) => data !== undefined && highlighted.has(data.id),
      'row-configured': ({ data }) => data !== undefined && data.id === configured?.id,
    }),
    [highlighted, configured],
  );

  const onGridReady = useCallback((event: GridReadyEvent<SubBudget>) => {
    gridApi.current = event.api;
  }, []);
  const isExternalFilterPresent = useCallback(() => selectedOnlyRef.current, []);
  const doesExternalFilterPass = useCallback((node: IRowNode<SubBudget>) => node.data !== undefined && selectedRef.current.has(node.data.id), []);

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
              disabled={selectedIds.length === 0}
              onClick={() => remove.ask({ kind: 'many', ids: selectedIds })}
              data-testid="sub-budgets-delete-selected"
            >
              <FormattedMessage id="subBudgets.deleteSelected" />
            </button>
            <button type="button" className="button button-primary" disabled={noClassifiers} onClick={() => setForm({ row: null })} data-testid="sub-budgets-add">
              <PlusIcon />
              <FormattedMessage id="subBudgets.add" />
            </button>
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

      <DataGrid<SubBudget>
        key={schemeId}
        testId="sub-budgets-grid"
        height={configured ? 300 : 420}
        rowData={subBudgets.isPending ? null : (subBudgets.data ?? [])}
        loading={subBudgets.isPending}
        columnDefs={columnDefs}
        context={contextRef.current}
        getRowId={({ data }) => data.id}
        rowSelection={canEdit ? { mode: 'multiRow', checkboxes: true, headerCheckbox: true, enableClickSelection: false } : undefined}
        onSelectionChanged={({ api }) => setSelectedIds(api.getSelectedRows().map((row) => row.id))}
        quickFilterText={filter}
        isExternalFilterPresent={isExternalFilterPresent}
        doesExternalFilterPass={doesExternalFilterPass}
        rowClassRules={rowClassRules}
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

      {form ? (
        <SubBudgetModal
          schemeId={schemeId}
          row={form.row}
          copyOf={form.copyOf ?? null}
          columns={columns}
          items={items.data?.list ?? []}
          onClose={() => setForm(null)}
          onSaved={async (id) => {
            await refresh();
            setForm(null);
            setNotice('subBudgets.saveSuccess');
            highlight(id);
          }}
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

/** Classifiers that have preselections anywhere in the scheme (the export's extra columns). */
function preselectionColumnsOf(classifiers: readonly Classifier[], presets: ReadonlyArray<{ preselections: Record<string, string[]> }>): SchemeColumn[] {
  const used = new Set(presets.flatMap((entry) => Object.entries(entry.preselections).filter(([, codes]) => codes.length > 0).map(([id]) => id)));
  return classifiers
    .filter((classifier) => used.has(classifier.id))
    .map((classifier) => ({ classifierId: classifier.id, type: 'SECONDARY' as const, fieldName: classifier.fieldName, name: classifier.name }));
}

type CellParams = ICellRendererParams<SubBudget, unknown, PanelContext>;

function SubBudgetNameCell({ data, context }: CellParams) {
  if (!data) return null;
  return (
    <button type="button" className="link-button" onClick={() => context.onConfigure(data)} data-testid="sub-budget-name">
      {data.name}
    </button>
  );
}

function SubBudgetActionsCell({ data, context }: CellParams) {
  const intl = useIntl();
  if (!data) return null;
  return (
    <span className="row-actions">
      <IconAction label={intl.formatMessage({ id: 'subBudgets.action.preselections' })} onClick={() => context.onConfigure(data)} testId="sub-budget-preselections">
        <span aria-hidden="true">☰</span>
      </IconAction>
      {context.canEdit ? (
        <>
          <IconAction label={intl.formatMessage({ id: 'subBudgets.action.edit' })} onClick={() => context.onEdit(data)} testId="sub-budget-edit">
            <EditIcon />
          </IconAction>
          <IconAction label={intl.formatMessage({ id: 'subBudgets.action.duplicate' })} onClick={() => context.onDuplicate(data)} testId="sub-budget-duplicate">
            <CopyIcon />
          </IconAction>
          <IconAction label={intl.formatMessage({ id: 'subBudgets.action.delete' })} danger onClick={() => context.onDelete(data)} testId="sub-budget-delete">
            <TrashIcon />
          </IconAction>
        </>
      ) : null}
    </span>
  );
}
