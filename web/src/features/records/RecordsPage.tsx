import { type Budget, roundAmount } from '@eelarve/shared';
import type { GetRowIdParams, GridApi, GridReadyEvent, RowClassRules, RowSelectionOptions } from 'ag-grid-community';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useOutletContext, useParams } from 'react-router';
import { useDocument } from '../../app/document/current-document';
import { useCurrentUser } from '../../app/session';
import { Alert } from '../../components/Alert';
import { ConfirmActionDialog } from '../../components/ConfirmAction';
import { Spinner } from '../../components/Spinner';
import { DataGrid } from '../../grid/DataGrid';
import { InlineEditInvalidAlert } from '../../grid/InlineEditParts';
import { ListError } from '../../grid/ListError';
import { amountFormatOf, DEFAULT_DATE_FORMAT, formatFixedAmount } from '../../i18n/format';
import { useLocale } from '../../i18n/I18nProvider';
import { type RecordDeleteTarget, useDeleteRecords, usePromoteRecord } from './api/mutations';
import { BulkEditModal } from './BulkEditModal';
import { HistoryModal } from './HistoryModal';
import { groupingOptions, groupOfRecord, itemText } from './model/grouping';
import { periodYears } from './model/period';
import { buildRows, keepGroupsTogether, type RecordRow, sumRows } from './model/rows';
import { PeriodModal } from './PeriodModal';
import type { RecordsGridContext } from './RecordCells';
import { RecordsHeader } from './RecordsHeader';
import { RecordsToolbar } from './RecordsToolbar';
import { useDebouncedValue } from './useDebouncedValue';
import { useRecordColumns } from './useRecordColumns';
import { useRecordEditing } from './useRecordEditing';
import { useRecordsData } from './useRecordsData';
import { ExportRecordsButton } from './export/ExportRecordsButton';
import { ImportMenu } from './import/ImportMenu';
import { UNFIT_SUB_BUDGET } from './api/requests';
import './records.css';

/** Spec 3, section 9: the records search waits 500 ms after the last key. */
const SEARCH_DEBOUNCE_MS = 500;

type PeriodView = { row: RecordRow; edit: boolean };

/**
 * /document/{d}/budget/{b}/sub-budgets/{schemeId}/records/{subBudgetId} (spec 3, Records screen):
 * the sub-budget's records, grouped by a classifier of the master classifier's items, with year,
 * quarter and total sums, edited inline, and their bulk edit, period overview and history.
 */
export function RecordsPage() {
  const { schemeId = '', subBudgetId = '' } = useParams();
  const document = useDocument();
  const { budget } = useOutletContext<{ budget: Budget }>();
  const me = useCurrentUser();
  const intl = useIntl();
  const { locale } = useLocale();
  const gridApi = useRef<GridApi<RecordRow> | null>(null);

  const data = useRecordsData({ budget, schemeId, subBudgetId, documentId: document.id, unfitName: intl.formatMessage({ id: 'records.unfit' }) });
  const { ref, subBudget, records, columns, items, access } = data;
  const amountFormat = amountFormatOf(me.organizationLocaleSettings);
  const separator = amountFormat.decimalSeparator;
  const formatAmount = useCallback(
    // The unsaved row has no amount yet (it may be drawn once more as its session ends).
    (amount: string) => (amount === '' ? '' : formatFixedAmount(roundAmount(amount, amountFormat.decimalPlaces), amountFormat.decimalSeparator)),
    [amountFormat.decimalPlaces, amountFormat.decimalSeparator],
  );
  const years = useMemo(() => periodYears(document.period), [document.period]);

  // Grouping (the primary grouping classifier until another is chosen), collapsed groups and the search.
  const grouping = useMemo(
    () => groupingOptions(data.classifiersAnswer.data ?? [], document.masterClassifierId),
    [data.classifiersAnswer.data, document.masterClassifierId],
  );
  const [chosenGrouping, setChosenGrouping] = useState<string | null>(null);
  const groupingId = chosenGrouping ?? grouping.preselected;
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const [search, setSearch] = useState('');
  const needle = useDebouncedValue(search, SEARCH_DEBOUNCE_MS).trim().toLocaleLowerCase(locale);

  const shown = useMemo(() => {
    const all = records.data ?? [];
    if (!needle) return all;
    return all.filter((record) =>
      [record.name, ...Object.entries(record.classifiers).map(([id, code]) => itemText(items.get(id)?.get(code), code))].some((text) =>
        text.toLocaleLowerCase(locale).includes(needle),
      ),
    );
  }, [records.data, needle, items, locale]);
  const saved = useMemo(
    () =>
      buildRows(shown, {
        groupOf: groupOfRecord(document.masterClassifierId, groupingId, items, intl.formatMessage({ id: 'records.group.none' })),
        collapsed,
        years,
      }),
    [shown, document.masterClassifierId, groupingId, items, intl, collapsed, years],
  );
  const totalRow = useMemo<RecordRow>(() => {
    const totals = sumRows(
      saved.filter((row) => row.depth === 0),
      years,
    );
    return {
      key: 'total',
      id: 'total',
      kind: 'group',
      depth: 0,
      groupKey: '',
      record: null,
      name: '',
      months: null,
      classifiers: {},
      promoted: false,
      count: shown.length,
      expanded: true,
      ...totals,
    };
  }, [saved, years, shown.length]);

  const editing = useRecordEditing({ subBudget: ref, saved, classifiers: columns, fixed: data.fixed, separator, years, gridApi });
  const { rowEditing } = editing;
  const { store, session, rows, finish } = rowEditing;
  const isEdited = useCallback((row: RecordRow) => store.current?.key === row.key, [store]);

  const [selectedIds, setSelectedIds] = useState<string[]>([]);
  const [bulkEditing, setBulkEditing] = useState(false);
  const [period, setPeriod] = useState<PeriodView | null>(null);
  const [history, setHistory] = useState<RecordRow | null>(null);
  const promote = usePromoteRecord(ref);
  const remove = useDeleteRecords(ref, (target: RecordDeleteTarget) => {
    if (target.kind === 'many') gridApi.current?.deselectAll();
  });

  useEffect(() => {
    // Another sub-budget: nothing stays selected or edited.
    void subBudgetId;
    setSelectedIds([]);
    finish();
  }, [subBudgetId, finish]);

  const contextRef = useRef<RecordsGridContext | null>(null);
  const handlers: RecordsGridContext = {
    store,
    access,
    items,
    options: data.options,
    required: data.required,
    separator,
    formatAmount,
    onToggleGroup: (key) =>
      setCollapsed((current) => {
        const next = new Set(current);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    onEdit: editing.onEdit,
    onDuplicate: editing.onDuplicate,
    onDelete: (row) => row.id && remove.ask({ kind: 'one', recordId: row.id, name: row.name }),
    onPromote: (row) => row.id && promote.mutate(row.id),
    onHistory: setHistory,
    onPeriod: (row) => setPeriod({ row, edit: false }),
    onEditSplit: () => {
      const row = rows.find((candidate) => candidate.key === store.current?.key);
      if (row) setPeriod({ row, edit: true });
    },
    onSave: editing.onSave,
    onCancel: finish,
  };
  if (contextRef.current) Object.assign(contextRef.current, handlers);
  else contextRef.current = handlers;

  const actionsWidth = (access.write ? 120 : 0) + (access.promote ? 40 : 0) + 90;
  const columnDefs = useRecordColumns({ classifiers: columns, items, years, actionsWidth, isEdited });
  const stateClasses = rowEditing.rowClassRules;
  const rowClassRules = useMemo<RowClassRules<RecordRow>>(
    () => ({ ...stateClasses, 'records-group-row': ({ data: row, node }) => row?.kind === 'group' || node.rowPinned !== undefined }),
    [stateClasses],
  );
  const rowSelection = useMemo<RowSelectionOptions<RecordRow> | undefined>(
    () =>
      access.write
        ? {
            mode: 'multiRow',
            checkboxes: true,
            headerCheckbox: true,
            enableClickSelection: false,
            hideDisabledCheckboxes: true,
            isRowSelectable: (node) => node.data?.kind === 'record' && node.data.id !== null && !node.rowPinned,
          }
        : undefined,
    [access.write],
  );
  const onGridReady = useCallback((event: GridReadyEvent<RecordRow>) => {
    gridApi.current = event.api;
  }, []);

  if (data.subBudgets.isPending) return <Spinner />;
  if (data.subBudgets.isError) {
    return (
      <ListError
        error={data.subBudgets.error}
        title={<FormattedMessage id="records.loadFailed" />}
        onRetry={() => void data.subBudgets.refetch()}
        testId="records-load-error"
      />
    );
  }
  if (!subBudget) {
    return (
      <Alert kind="warning" testId="records-sub-budget-not-found">
        <FormattedMessage id="records.subBudgetNotFound" />
      </Alert>
    );
  }

  const statusLocked = (budget.permissions.restrictions ?? []).includes('RESOURCE_WRITE_DISABLED');
  const periodRow = period?.row;
  const dateTimeFormat = `${me.organizationLocaleSettings?.dateFormat ?? DEFAULT_DATE_FORMAT} HH:mm`;

  return (
    <div className="records-page" data-testid="records-page" data-read-only={access.write ? undefined : 'true'}>
      <RecordsHeader name={subBudget.name} values={data.header} items={items} />
      {!access.write ? (
        <p className="muted" data-testid="records-read-only">
          <FormattedMessage id={statusLocked ? 'records.readOnly.status' : 'records.readOnly'} />
        </p>
      ) : null}
      {data.classifiersAnswer.isError ? (
        <Alert kind="info" testId="records-classifiers-unreadable">
          <FormattedMessage id="records.classifiersUnreadable" />
        </Alert>
      ) : null}
      <RecordsToolbar
        search={search}
        onSearch={setSearch}
        grouping={groupingId}
        groupingOptions={grouping.options}
        onGrouping={setChosenGrouping}
        selectedCount={selectedIds.length}
        canWrite={access.write}
        editing={session !== null}
        loading={records.isPending}
        importMenu={
          data.scheme && subBudgetId !== UNFIT_SUB_BUDGET ? (
            <ImportMenu
              documentId={document.id}
              budget={budget}
              subBudget={{
                id: subBudgetId,
                name: subBudget.name,
                update: subBudget.permissions?.update,
                schemeClassifierIds: data.scheme.classifierList.map((entry) => entry.classifierId),
                classifiers: data.fixed,
              }}
            />
          ) : null
        }
        exportButton={
          <ExportRecordsButton
            documentId={document.id}
            budgetPermissions={budget.permissions}
            source={{
              kind: 'subBudget',
              budgetId: budget.id,
              subBudgetId,
              schemeId: subBudgetId === UNFIT_SUB_BUDGET ? schemeId : undefined,
              name: subBudget.name,
            }}
          />
        }
        onDeleteSelected={() => remove.ask({ kind: 'many', recordIds: selectedIds })}
        onBulkEdit={() => setBulkEditing(true)}
        onAdd={editing.onAdd}
      />
      <InlineEditInvalidAlert invalid={session?.invalid ?? {}} labels={editing.fieldLabel} messageId="records.field.invalid" testId="record-validation-error" />
      {records.isError ? (
        <ListError
          error={records.error}
          title={<FormattedMessage id="records.loadFailed" />}
          onRetry={() => void records.refetch()}
          testId="records-list-error"
        />
      ) : null}
      {records.isError && records.data === undefined ? null : (
        <DataGrid<RecordRow>
          testId="records-grid"
          // Spec 3: the records table is at most 60% of the viewport high.
          height="60vh"
          rowData={records.isPending ? null : rows}
          loading={records.isPending}
          columnDefs={columnDefs}
          context={contextRef.current}
          getRowId={getRowKey}
          rowSelection={rowSelection}
          onSelectionChanged={({ api }) => setSelectedIds(api.getSelectedRows().flatMap((row) => (row.kind === 'record' && row.id ? [row.id] : [])))}
          pinnedBottomRowData={records.data && records.data.length > 0 ? [totalRow] : undefined}
          rowClassRules={rowClassRules}
          postSortRows={keepGroupsTogether}
          // At most 5 years of quarter columns: all are drawn (the edited row's editors stay mounted).
          suppressColumnVirtualisation
          onGridReady={onGridReady}
        />
      )}

      {bulkEditing ? (
        <BulkEditModal
          subBudget={ref}
          recordIds={selectedIds}
          classifiers={columns}
          options={data.options}
          separator={separator}
          onClose={() => {
            setBulkEditing(false);
          }}
        />
      ) : null}
      {period && periodRow ? (
        <PeriodModal
          name={periodRow.name}
          period={document.period}
          months={period.edit ? (store.current?.draft.months ?? null) : periodRow.months}
          formatAmount={formatAmount}
          separator={separator}
          edit={
            period.edit
              ? {
                  onApply: (months) => {
                    store.update({ months });
                    setPeriod(null);
                  },
                }
              : undefined
          }
          onClose={() => setPeriod(null)}
        />
      ) : null}
      {history?.id ? (
        <HistoryModal
          subBudget={ref}
          recordId={history.id}
          name={history.name}
          classifiers={columns}
          items={items}
          years={years}
          canRevert={access.write}
          formatAmount={formatAmount}
          dateTimeFormat={dateTimeFormat}
          onClose={() => setHistory(null)}
        />
      ) : null}
      <ConfirmActionDialog
        action={remove}
        testId="record-delete-dialog"
        title={<FormattedMessage id={remove.target?.kind === 'many' ? 'records.delete.manyTitle' : 'records.delete.title'} />}
        message={(target) =>
          target.kind === 'one' ? (
            <FormattedMessage id="records.delete.question" values={{ name: target.name }} />
          ) : (
            <FormattedMessage id="records.delete.manyQuestion" values={{ count: target.recordIds.length }} />
          )
        }
        confirmLabel={<FormattedMessage id="common.delete" />}
        failedTitle={<FormattedMessage id="records.delete.failed" />}
        errorTestId="record-delete-error"
      />
    </div>
  );
}

const getRowKey = ({ data }: GetRowIdParams<RecordRow>) => data.key;
