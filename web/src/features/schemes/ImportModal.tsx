import type { SubBudget, SubBudgetImportRowError } from '@eelarve/shared';
import type { ColDef, GetRowIdParams, ICellRendererParams, RowClassRules } from 'ag-grid-community';
import { type ChangeEvent, useId, useMemo, useState } from 'react';
import { FormattedMessage, type IntlShape, useIntl } from 'react-intl';
import { isApiError } from '../../api';
import { newImportId } from '../../api/import-id';
import { Alert } from '../../components/Alert';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FileInput } from '../../components/FileInput';
import { Modal } from '../../components/Modal';
import { DataGrid } from '../../grid/DataGrid';
import { isMessageKey } from '../../i18n/messages';
import { useImportSubBudgets } from './api/mutations';
import type { ImportType } from './api/requests';
import { type ParsedImportRow, parseImportTable, preselectionKeys, type SchemeColumn, shortList } from './model';
import { readTable } from '../../components/spreadsheet';

/** Spec 2, section 9: the file-selection step is 700 px wide; the rows step as wide as the window allows (95%). */
export const IMPORT_FILE_STEP_WIDTH = 700;
const IMPORT_ROWS_STEP_WIDTH = 1600;
/** Up to this many rows the preview grows with its rows (wrapped errors included); more scroll in a fixed height. */
const PREVIEW_AUTO_HEIGHT_ROWS = 8;
const PREVIEW_HEIGHT = 380;

interface PreviewContext {
  errorText: (message: string) => string;
}

const getPreviewRowId = ({ data }: GetRowIdParams<ParsedImportRow>) => String(data.line);
const PREVIEW_ROW_CLASSES: RowClassRules<ParsedImportRow> = { 'sub-budget-import-row-error': ({ data }) => data !== undefined && data.errors.length > 0 };

/**
 * Import of sub-budgets (with preselections) or of preselections only: the file is read in the
 * browser, checked row by row, and sent only when no row has errors (spec 2, section 5).
 */
export function ImportModal({
  schemeId,
  mode,
  columns,
  existing,
  onClose,
  onImported,
}: {
  schemeId: string;
  mode: ImportType;
  columns: SchemeColumn[];
  existing: SubBudget[];
  onClose: () => void;
  onImported: (count: number) => Promise<void>;
}) {
  const intl = useIntl();
  const fileId = useId();
  const [rows, setRows] = useState<ParsedImportRow[] | null>(null);
  const [readFailed, setReadFailed] = useState(false);
  const [imported, setImported] = useState<number | null>(null);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setImported(null);
    submit.reset();
    if (!file) return;
    try {
      setReadFailed(false);
      setRows(parseImportTable(await readTable(file), columns, mode, existing));
    } catch {
      setRows(null);
      setReadFailed(true);
    }
  };

  // One id per import attempt (the rows read from one file): importing them again after a lost answer is answered "already done".
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt starts whenever the rows change.
  const importId = useMemo(() => newImportId(), [rows]);
  const submit = useImportSubBudgets(schemeId, mode, {
    onImported: async (imported) => {
      setImported(imported);
      await onImported(imported);
    },
    onError: (error) => {
      // SUB_BUDGET_IMPORT_INVALID: the server's row errors are shown on their rows.
      if (!rows || !isApiError(error) || !Array.isArray(error.details)) return;
      const byRow = new Map((error.details as SubBudgetImportRowError[]).map((entry) => [entry.row, entry.errors.map((issue) => issue.message)]));
      setRows(rows.map((entry, index) => ({ ...entry, errors: [...entry.errors, ...(byRow.get(index) ?? [])] })));
    },
  });
  const sendRows = (list: ParsedImportRow[]) => submit.mutate({ list: list.map((entry) => entry.row), importId });

  const errorCount = rows?.filter((entry) => entry.errors.length > 0).length ?? 0;
  const canImport = rows !== null && rows.length > 0 && errorCount === 0 && !submit.isPending;
  const modeLabel = intl.formatMessage({ id: mode === 'PRESELECTIONS_ONLY' ? 'subBudgets.import.preselectionsOnly' : 'subBudgets.import.withPreselections' });
  const previewContext = useMemo<PreviewContext>(() => ({ errorText: (message) => importErrorText(intl, message) }), [intl]);
  const previewColumns = useMemo(() => previewColumnDefs(intl, columns, rows ?? []), [intl, columns, rows]);

  return (
    <Modal
      title={<FormattedMessage id="subBudgets.import.title" values={{ mode: modeLabel }} />}
      onClose={onClose}
      busy={submit.isPending}
      width={rows && rows.length > 0 ? IMPORT_ROWS_STEP_WIDTH : IMPORT_FILE_STEP_WIDTH}
      testId="sub-budgets-import-modal"
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={submit.isPending} data-testid="sub-budgets-import-cancel">
            <FormattedMessage id="common.cancel" />
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={!canImport}
            onClick={() => rows && sendRows(rows)}
            data-testid="sub-budgets-import-submit"
          >
            <FormattedMessage id="subBudgets.import.submit" />
          </button>
        </>
      }
    >
      <div className="form">
        <div className="field">
          <label htmlFor={fileId}>
            <FormattedMessage id="subBudgets.import.file" />
          </label>
          <FileInput id={fileId} accept=".xlsx,.csv" onChange={onFile} describedBy={`${fileId}-hint`} testId="sub-budgets-import-file" />
          <div className="field-hint" id={`${fileId}-hint`}>
            <FormattedMessage id="subBudgets.import.hint" />
          </div>
        </div>
        {readFailed ? (
          <Alert kind="error" testId="sub-budgets-import-read-error">
            <FormattedMessage id="subBudgets.import.readError" />
          </Alert>
        ) : null}
        {imported !== null ? (
          <Alert kind="success" testId="sub-budgets-import-success">
            <FormattedMessage id="subBudgets.import.importSuccess" values={{ count: imported }} />
          </Alert>
        ) : null}
        {submit.isError ? (
          <ErrorAlert error={submit.error} title={<FormattedMessage id="subBudgets.import.importError" />} testId="sub-budgets-import-error" />
        ) : null}
        {rows && rows.length === 0 ? (
          <p className="muted">
            <FormattedMessage id="subBudgets.import.empty" />
          </p>
        ) : null}
        {rows && rows.length > 0 ? (
          <>
            <p className="muted" data-testid="sub-budgets-import-summary">
              <FormattedMessage id="subBudgets.import.rows" values={{ count: rows.length, errors: errorCount }} />
            </p>
            {errorCount > 0 ? (
              <Alert kind="warning" testId="sub-budgets-import-has-errors">
                <FormattedMessage id="subBudgets.import.hasErrors" />
              </Alert>
            ) : null}
            <DataGrid<ParsedImportRow>
              testId="sub-budgets-import-preview"
              height={rows.length <= PREVIEW_AUTO_HEIGHT_ROWS ? 'auto' : PREVIEW_HEIGHT}
              domLayout={rows.length <= PREVIEW_AUTO_HEIGHT_ROWS ? 'autoHeight' : 'normal'}
              rowData={rows}
              columnDefs={previewColumns}
              context={previewContext}
              getRowId={getPreviewRowId}
              rowClassRules={PREVIEW_ROW_CLASSES}
              ensureDomOrder
            />
          </>
        ) : null}
      </div>
    </Modal>
  );
}

function importErrorText(intl: IntlShape, message: string): string {
  const key = `schemes.importError.${message}`;
  if (isMessageKey(key)) return intl.formatMessage({ id: key });
  if (message.startsWith('validation.') && isMessageKey(message)) return intl.formatMessage({ id: message }, { min: 'none', max: 'none', values: 'none' });
  return intl.formatMessage({ id: 'schemes.importError.other' }, { message });
}

/**
 * The preview's columns: the file's line, the name, a value per classifier of the scheme, a column
 * per classifier with preselections (each cell shortened, spec 2 section 5) and the row's errors.
 */
function previewColumnDefs(intl: IntlShape, columns: readonly SchemeColumn[], rows: readonly ParsedImportRow[]): ColDef<ParsedImportRow>[] {
  const names = new Map(columns.map((column) => [column.classifierId, column.name]));
  return [
    { colId: 'line', field: 'line', headerName: intl.formatMessage({ id: 'subBudgets.import.line' }), width: 96, sort: 'asc' },
    {
      colId: 'name',
      headerName: intl.formatMessage({ id: 'subBudgets.column.name' }),
      flex: 1.4,
      minWidth: 180,
      valueGetter: ({ data }) => data?.row.name ?? '',
    },
    ...columns.map<ColDef<ParsedImportRow>>((column) => ({
      colId: `classifier-${column.classifierId}`,
      headerName: column.name,
      flex: 1,
      minWidth: 120,
      valueGetter: ({ data }) => data?.row.classifiers[column.classifierId] ?? '',
    })),
    ...preselectionKeys(rows.map((entry) => entry.row)).map<ColDef<ParsedImportRow>>((key) => ({
      colId: `preselection-${key}`,
      headerName: intl.formatMessage({ id: 'subBudgets.import.preselectionColumn' }, { name: names.get(key) ?? key }),
      flex: 1,
      minWidth: 140,
      sortable: false,
      valueGetter: ({ data }) => data?.row.preselections[key] ?? [],
      cellRenderer: PreselectionCell,
    })),
    {
      colId: 'errors',
      headerName: intl.formatMessage({ id: 'subBudgets.import.errors' }),
      flex: 2,
      minWidth: 220,
      sortable: false,
      wrapText: true,
      autoHeight: true,
      cellRenderer: ErrorsCell,
    },
  ];
}

type PreviewParams = ICellRendererParams<ParsedImportRow, unknown, PreviewContext>;

function PreselectionCell({ value }: PreviewParams) {
  const codes = Array.isArray(value) ? value.map(String) : [];
  return (
    <span title={codes.join(', ')} data-testid="sub-budgets-import-preselection">
      {shortList(codes)}
    </span>
  );
}

function ErrorsCell({ data, context }: PreviewParams) {
  if (!data) return null;
  return (
    <span className="sub-budget-import-errors" data-testid="sub-budgets-import-row-errors">
      {data.errors.map(context.errorText).join('; ')}
    </span>
  );
}
