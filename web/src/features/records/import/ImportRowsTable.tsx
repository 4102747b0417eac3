import type { ImportClassifier, RecordImportRowError } from '@eelarve/shared';
import type { ColDef, GridApi, ICellRendererParams, IRowNode, RowClassRules, RowSelectionOptions, SelectionChangedEvent } from 'ag-grid-community';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { type IntlShape, useIntl } from 'react-intl';
import { DataGrid } from '../../../grid/DataGrid';
import { isMessageKey, type MessageKey } from '../../../i18n/messages';
import { cellText } from '../../../components/spreadsheet';
import { additionalValues, type CheckedRow, shortValues } from './rows';

/** Spec 3, section 9: the import error table is 45% of the viewport high. */
const TABLE_HEIGHT = '45vh';

export interface RowsFilter {
  search: string;
  errorsOnly: boolean;
}

/** What a table of rows with errors (this one, and the error report's) gives its errors cells. */
export interface ErrorsTableContext {
  errorText: (error: RecordImportRowError) => string;
  criticalLabel: string;
}
type TableContext = ErrorsTableContext;

/** A row the errors cell and the row colours read: its errors and whether one is critical. */
export interface RowWithErrors {
  validationErrors: readonly RecordImportRowError[];
  critical: boolean;
}

/** Row colours by errors: a critical row red, another row with errors amber (the errors cell says which in words). */
export function errorRowClasses<T extends RowWithErrors>(): RowClassRules<T> {
  return {
    'record-import-row-critical': ({ data }) => data?.critical === true,
    'record-import-row-error': ({ data }) => data !== undefined && !data.critical && data.validationErrors.length > 0,
  };
}

const ROW_CLASSES = errorRowClasses<CheckedRow>();

/** A row error's message: the import's own text, else the error catalogue's (the RECORD_* codes of keyed rows). */
function importMessageKey(message: string): MessageKey | null {
  const own = `records.importError.${message}`;
  if (isMessageKey(own)) return own;
  const catalogued = `error.${message}`;
  return isMessageKey(catalogued) ? catalogued : null;
}

/** Fields the message itself names: no prefix. */
const SELF_NAMED_FIELDS = new Set(['name', 'amount', 'months', 'month', 'year']);

/** 'tegevusala: Classifier value not found.' — the field is named for classifiers and months. */
export function importErrorText(intl: IntlShape, error: RecordImportRowError, monthNames: readonly string[]): string {
  const key = importMessageKey(error.message);
  const text = key ? intl.formatMessage({ id: key }) : error.message;
  const field = error.fieldName;
  if (!field || SELF_NAMED_FIELDS.has(field)) return text;
  const month = /^months\.(\d+)$/.exec(field);
  return `${month ? (monthNames[Number(month[1])] ?? field) : field}: ${text}`;
}

/**
 * The rows read from the source with each row's errors (spec 3, sections 4 and 5): rows with a
 * critical error cannot be selected; the search and the errors-only switch filter the table.
 */
export function ImportRowsTable({
  rows,
  classifiers,
  monthNames,
  filter,
  onSelectionChange,
}: {
  rows: readonly CheckedRow[];
  classifiers: readonly ImportClassifier[];
  monthNames: readonly string[];
  filter: RowsFilter;
  onSelectionChange: (lines: Set<number>) => void;
}) {
  const intl = useIntl();
  const gridApi = useRef<GridApi<CheckedRow> | null>(null);
  const filterRef = useRef(filter);
  filterRef.current = filter;

  const context = useMemo<TableContext>(
    () => ({ errorText: (error) => importErrorText(intl, error, monthNames), criticalLabel: intl.formatMessage({ id: 'recordImport.critical' }) }),
    [intl, monthNames],
  );
  const columnDefs = useMemo(() => rowColumns(intl, classifiers, context), [intl, classifiers, context]);
  const rowSelection = useMemo<RowSelectionOptions<CheckedRow>>(
    () => ({ mode: 'multiRow', checkboxes: true, headerCheckbox: true, isRowSelectable: (node) => node.data !== undefined && !node.data.critical }),
    [],
  );

  const doesExternalFilterPass = useCallback(
    (node: IRowNode<CheckedRow>) => !filterRef.current.errorsOnly || (node.data?.validationErrors.length ?? 0) > 0,
    [],
  );
  // The external filter reads the switch through a ref: the grid is told to filter again when it flips.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect runs because the switch changed.
  useEffect(() => {
    gridApi.current?.onFilterChanged();
  }, [filter.errorsOnly]);

  return (
    <DataGrid<CheckedRow>
      testId="record-import-rows"
      height={TABLE_HEIGHT}
      rowData={rows as CheckedRow[]}
      columnDefs={columnDefs}
      context={context}
      getRowId={({ data }) => String(data.line)}
      rowSelection={rowSelection}
      rowClassRules={ROW_CLASSES}
      quickFilterText={filter.search}
      isExternalFilterPresent={() => filterRef.current.errorsOnly}
      doesExternalFilterPass={doesExternalFilterPass}
      onGridReady={(event) => {
        gridApi.current = event.api;
      }}
      onSelectionChanged={(event: SelectionChangedEvent<CheckedRow>) => onSelectionChange(new Set(event.api.getSelectedRows().map((row) => row.line)))}
      ensureDomOrder
    />
  );
}

/** Master and required classifiers get a column each; the optional ones share one (two values, then an ellipsis). */
function rowColumns(intl: IntlShape, classifiers: readonly ImportClassifier[], context: TableContext): ColDef<CheckedRow>[] {
  const own = classifiers.filter((classifier) => classifier.master || classifier.required);
  const others = classifiers.filter((classifier) => !classifier.master && !classifier.required);
  const sourceCode = (row: CheckedRow | undefined, classifier: ImportClassifier) =>
    row ? cellText(row.source.classifiers[classifier.fieldName] ?? row.source.classifiers[classifier.id]) : '';
  return [
    { colId: 'line', field: 'line', headerName: intl.formatMessage({ id: 'recordImport.column.line' }), width: 110, sort: 'asc' },
    {
      colId: 'name',
      headerName: intl.formatMessage({ id: 'recordImport.column.name' }),
      flex: 1.4,
      minWidth: 180,
      valueGetter: ({ data }) => (data ? cellText(data.source.name) || data.values.name : ''),
    },
    {
      colId: 'amount',
      headerName: intl.formatMessage({ id: 'recordImport.column.amount' }),
      width: 140,
      type: 'rightAligned',
      valueGetter: ({ data }) => (data ? cellText(data.source.amount) : ''),
    },
    {
      colId: 'months',
      headerName: intl.formatMessage({ id: 'recordImport.column.months' }),
      width: 100,
      type: 'rightAligned',
      valueGetter: ({ data }) => data?.source.months?.filter((value) => cellText(value) !== '').length ?? 0,
    },
    ...own.map<ColDef<CheckedRow>>((classifier) => ({
      colId: `classifier-${classifier.id}`,
      headerName: classifier.fieldName,
      flex: 1,
      minWidth: 130,
      valueGetter: ({ data }) => sourceCode(data, classifier),
    })),
    ...(others.length > 0
      ? [
          {
            colId: 'additional',
            headerName: intl.formatMessage({ id: 'recordImport.column.additional' }),
            flex: 1.2,
            minWidth: 180,
            sortable: false,
            valueGetter: ({ data }) => (data ? additionalValues(data, others) : []),
            cellRenderer: AdditionalCell,
            getQuickFilterText: ({ value }) => (Array.isArray(value) ? value.join(' ') : ''),
          } satisfies ColDef<CheckedRow>,
        ]
      : []),
    {
      colId: 'errors',
      headerName: intl.formatMessage({ id: 'recordImport.column.errors' }),
      flex: 2.4,
      minWidth: 260,
      sortable: false,
      wrapText: true,
      autoHeight: true,
      valueGetter: ({ data }) => data?.validationErrors.map(context.errorText).join(' ') ?? '',
      cellRenderer: ErrorsCell,
    },
  ];
}

type CellParams = ICellRendererParams<CheckedRow, unknown, TableContext>;
type ErrorsCellParams = ICellRendererParams<RowWithErrors, unknown, ErrorsTableContext>;

function AdditionalCell({ value }: CellParams) {
  const values = Array.isArray(value) ? value.map(String) : [];
  return (
    <span title={values.join(', ')} data-testid="record-import-additional">
      {shortValues(values)}
    </span>
  );
}

/** A row's errors, each translated, the critical ones said so in words (not by colour alone). */
export function ErrorsCell({ data, context }: ErrorsCellParams) {
  if (!data || data.validationErrors.length === 0) return null;
  return (
    <ul className="record-import-errors" data-testid="record-import-row-errors" data-critical={data.critical}>
      {data.validationErrors.map((error) => (
        <li key={`${error.message}-${error.fieldName ?? ''}`} data-message={error.message} className={error.critical ? 'critical' : undefined}>
          {context.errorText(error)}
          {error.critical ? <strong className="record-import-critical"> ({context.criticalLabel})</strong> : null}
        </li>
      ))}
    </ul>
  );
}
