import type { SubBudget, SubBudgetImportRowError } from '@eelarve/shared';
import { useMutation } from '@tanstack/react-query';
import { type ChangeEvent, useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { isApiError } from '../../api';
import { Alert } from '../../components/Alert';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Modal } from '../../components/Modal';
import { isMessageKey } from '../../i18n/messages';
import { type ImportType, importSubBudgets } from './api';
import { type ParsedImportRow, parseImportTable, type SchemeColumn, shortList } from './model';
import { readTable } from './xlsx';

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

  const submit = useMutation({
    mutationFn: (list: ParsedImportRow[]) => importSubBudgets(schemeId, mode, list.map((entry) => entry.row)),
    onSuccess: async (result) => {
      setImported(result.imported);
      await onImported(result.imported);
    },
    onError: (error) => {
      // SUB_BUDGET_IMPORT_INVALID: the server's row errors are shown on their rows.
      if (!rows || !isApiError(error) || !Array.isArray(error.details)) return;
      const byRow = new Map((error.details as SubBudgetImportRowError[]).map((entry) => [entry.row, entry.errors.map((issue) => issue.message)]));
      setRows(rows.map((entry, index) => ({ ...entry, errors: [...entry.errors, ...(byRow.get(index) ?? [])] })));
    },
  });

  const errorCount = rows?.filter((entry) => entry.errors.length > 0).length ?? 0;
  const canImport = rows !== null && rows.length > 0 && errorCount === 0 && !submit.isPending;
  const modeLabel = intl.formatMessage({ id: mode === 'PRESELECTIONS_ONLY' ? 'subBudgets.import.preselectionsOnly' : 'subBudgets.import.withPreselections' });
  const errorText = (message: string) => {
    const key = `schemes.importError.${message}`;
    if (isMessageKey(key)) return intl.formatMessage({ id: key });
    if (message.startsWith('validation.') && isMessageKey(message)) return intl.formatMessage({ id: message }, { min: 'none', max: 'none', values: 'none' });
    return intl.formatMessage({ id: 'schemes.importError.other' }, { message });
  };

  return (
    <Modal
      title={<FormattedMessage id="subBudgets.import.title" values={{ mode: modeLabel }} />}
      onClose={onClose}
      busy={submit.isPending}
      width={900}
      testId="sub-budgets-import-modal"
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={submit.isPending} data-testid="sub-budgets-import-cancel">
            <FormattedMessage id="common.cancel" />
          </button>
          <button type="button" className="button button-primary" disabled={!canImport} onClick={() => rows && submit.mutate(rows)} data-testid="sub-budgets-import-submit">
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
          <input id={fileId} type="file" accept=".xlsx,.csv" onChange={onFile} data-testid="sub-budgets-import-file" />
          <div className="field-hint">
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
        {submit.isError ? <ErrorAlert error={submit.error} title={<FormattedMessage id="subBudgets.import.importError" />} testId="sub-budgets-import-error" /> : null}
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
            <div className="import-preview">
              <table className="simple-table" data-testid="sub-budgets-import-preview">
                <thead>
                  <tr>
                    <th>
                      <FormattedMessage id="subBudgets.import.line" />
                    </th>
                    <th>
                      <FormattedMessage id="subBudgets.column.name" />
                    </th>
                    {columns.map((column) => (
                      <th key={column.classifierId}>{column.name}</th>
                    ))}
                    <th>
                      <FormattedMessage id="subBudgets.action.preselections" />
                    </th>
                    <th>
                      <FormattedMessage id="subBudgets.import.errors" />
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((entry) => (
                    <tr key={entry.line} className={entry.errors.length > 0 ? 'row-error' : undefined} data-testid="sub-budgets-import-row">
                      <td>{entry.line}</td>
                      <td>{entry.row.name}</td>
                      {columns.map((column) => (
                        <td key={column.classifierId}>{entry.row.classifiers[column.classifierId] ?? ''}</td>
                      ))}
                      <td>{shortList(Object.values(entry.row.preselections).flat())}</td>
                      <td data-testid="sub-budgets-import-row-errors">{entry.errors.map(errorText).join('; ')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        ) : null}
      </div>
    </Modal>
  );
}
