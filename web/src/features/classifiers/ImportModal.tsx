import type { Classifier, ImportValidation } from '@eelarve/shared';
import type { RowSelectionOptions, SelectionChangedEvent } from 'ag-grid-community';
import { useId, useMemo, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { errorCodeOf } from '../../api';
import { newImportId } from '../../api/import-id';
import { Alert } from '../../components/Alert';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FileInput } from '../../components/FileInput';
import { Modal } from '../../components/Modal';
import { DataGrid } from '../../grid/DataGrid';
import { useImportItems, useValidateImport } from './api/mutations';
import { templateUrl } from './api/requests';
import { type ImportGridContext, type ImportRow, useImportColumns } from './ImportColumns';

/** Spec 2, section 9: the file-selection step is 700 px wide; the rows step is wider (the modal stops at 95% of the window). */
const FILE_STEP_WIDTH = 700;
const ROWS_STEP_WIDTH = 1100;

/**
 * Item import (spec 2, sections 2, 5 and 8): choose an .xlsx or .csv file (700 px step), the
 * server checks every row, the rows are shown with their errors; import is enabled only when no
 * row has errors, or in loose mode when at least one valid row is selected.
 */
export function ImportModal({
  documentId,
  classifier,
  classifiers,
  onClose,
  onImported,
  onFailed,
}: {
  documentId: string;
  classifier: Classifier;
  classifiers: Classifier[];
  onClose: () => void;
  onImported: (count: number) => Promise<unknown>;
  onFailed: () => void;
}) {
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ImportValidation | null>(null);
  const [loose, setLoose] = useState(false);
  const [selected, setSelected] = useState<ImportRow[]>([]);

  const validate = useValidateImport(classifier.id);

  const groupings = useMemo(() => classifiers.filter((other) => classifier.groupedByIds.includes(other.id)), [classifiers, classifier]);
  const rows = useMemo<ImportRow[]>(() => (result?.rows ?? []).map((row) => ({ ...row, id: String(row.row) })), [result]);
  const errorRows = rows.filter((row) => row.errors.length > 0).length;

  const toItem = (row: ImportRow): Record<string, unknown> => {
    const { values } = row;
    const groupedBy: Record<string, unknown> = {};
    for (const grouping of groupings) {
      const value = values[grouping.fieldName];
      if (value !== undefined && value !== null && String(value).trim() !== '') groupedBy[grouping.id] = value;
    }
    return {
      code: values.code,
      name: values.name,
      description: values.description,
      unselectable: values.unselectable,
      sign: values.sign,
      classifierId: classifier.id,
      groupedBy,
    };
  };

  // One id per import attempt (these rows, this mode): pressing Import again after a lost answer is answered "already done".
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt starts whenever what would be sent changes.
  const importId = useMemo(() => newImportId(), [result, loose, selected]);
  const importRows = useImportItems(classifier.id, documentId, {
    onImported: async (count) => {
      await onImported(count);
      onClose();
    },
    onError: (error) => {
      if (errorCodeOf(error) === 'INTERNAL_ERROR' || (error as { status?: number }).status === 500) onFailed();
    },
  });
  const sendRows = () => {
    const chosen = loose ? selected.filter((row) => row.errors.length === 0) : rows;
    importRows.mutate({ items: chosen.map(toItem), loose, importId });
  };

  const canImport = result !== null && rows.length > 0 && (loose ? selected.some((row) => row.errors.length === 0) : errorRows === 0);

  const { columns, fieldLabel } = useImportColumns(result?.columns ?? [], groupings);

  const rowSelection = useMemo<RowSelectionOptions<ImportRow>>(
    () => ({ mode: 'multiRow', isRowSelectable: (node) => (node.data?.errors.length ?? 1) === 0 }),
    [],
  );

  const footer = result ? (
    <>
      <button
        type="button"
        className="button"
        onClick={() => {
          setResult(null);
          setSelected([]);
        }}
        disabled={importRows.isPending}
        data-testid="import-back"
      >
        <FormattedMessage id="classifiers.import.back" />
      </button>
      <button type="button" className="button button-primary" disabled={!canImport || importRows.isPending} onClick={sendRows} data-testid="import-submit">
        <FormattedMessage id="classifiers.import.import" />
      </button>
    </>
  ) : (
    <>
      <button type="button" className="button" onClick={onClose} disabled={validate.isPending} data-testid="import-cancel">
        <FormattedMessage id="common.cancel" />
      </button>
      <button
        type="button"
        className="button button-primary"
        disabled={!file || validate.isPending}
        onClick={() => file && validate.mutate(file, { onSuccess: setResult })}
        data-testid="import-upload"
      >
        <FormattedMessage id="classifiers.import.upload" />
      </button>
    </>
  );

  return (
    <Modal
      title={<FormattedMessage id="classifiers.import.title" />}
      onClose={onClose}
      width={result ? ROWS_STEP_WIDTH : FILE_STEP_WIDTH}
      busy={validate.isPending || importRows.isPending}
      testId="import-modal"
      footer={footer}
    >
      {result === null ? (
        <div className="form" data-testid="import-file-step">
          <div className="field">
            <label htmlFor={fileId}>
              <FormattedMessage id="classifiers.import.file" />
            </label>
            <FileInput
              id={fileId}
              accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              testId="import-file-input"
            />
          </div>
          <p className="import-templates">
            <FormattedMessage id="classifiers.import.templates" />{' '}
            <a href={templateUrl(classifier.id, 'xlsx')} download data-testid="import-template-xlsx">
              <FormattedMessage id="classifiers.import.templateXlsx" />
            </a>{' '}
            <a href={templateUrl(classifier.id, 'csv')} download data-testid="import-template-csv">
              <FormattedMessage id="classifiers.import.templateCsv" />
            </a>
          </p>
          {validate.isError ? (
            <ErrorAlert error={validate.error} title={<FormattedMessage id="classifiers.import.parseFailed" />} testId="import-parse-error" />
          ) : null}
        </div>
      ) : (
        <div data-testid="import-rows-step">
          {importRows.isError ? (
            <ErrorAlert error={importRows.error} title={<FormattedMessage id="classifiers.import.uploadFailed" />} testId="import-error" />
          ) : null}
          {rows.length === 0 ? (
            <Alert kind="warning" testId="import-no-rows">
              <FormattedMessage id="classifiers.import.noRows" />
            </Alert>
          ) : null}
          <div className="import-summary">
            <span data-testid="import-summary" data-rows={rows.length} data-errors={errorRows}>
              <FormattedMessage id="classifiers.import.summary" values={{ rows: rows.length, errors: errorRows }} />
            </span>
            <label className="checkbox">
              <input type="checkbox" checked={loose} onChange={(event) => setLoose(event.target.checked)} data-testid="import-loose" />
              <FormattedMessage id="classifiers.import.loose" />
            </label>
          </div>
          <DataGrid<ImportRow>
            testId="import-grid"
            height={360}
            rowData={rows}
            columnDefs={columns}
            getRowId={({ data }) => data.id}
            rowSelection={loose ? rowSelection : undefined}
            onSelectionChanged={(event: SelectionChangedEvent<ImportRow>) => setSelected(event.api.getSelectedRows())}
            rowClassRules={{ 'import-row-error': ({ data }) => (data?.errors.length ?? 0) > 0 }}
            context={{ fieldLabel } satisfies ImportGridContext}
          />
        </div>
      )}
    </Modal>
  );
}
