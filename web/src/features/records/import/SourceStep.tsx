import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Alert } from '../../../components/Alert';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { FileInput } from '../../../components/FileInput';
import { monthKeys } from '../export/workbook';
import { fetchDocumentBudgets, isReadable } from './api';
import { type LoadedSource, useLoadBudget, useReadFile } from './mutations';
import type { ImportColumnsContext, ImportPeriod } from './rows';

export type SourceMode = 'file' | 'budget';
export type { LoadedSource };

interface SourceStepProps {
  mode: SourceMode;
  documentId: string;
  budgetId: string;
  amountKey: string;
  period: ImportPeriod | null;
  /** The document's classifiers: a file's columns are their field names (or names). */
  classifiers: ImportColumnsContext['classifiers'];
  decimalSeparator: ',' | '.';
  /** The facts to check rows against are loaded. */
  ready: boolean;
  onLoaded: (source: LoadedSource) => void;
  onCancel: () => void;
}

/** Step 1 of the import (spec 3, section 4): an .xlsx or .csv file, or another budget of the document. */
export function SourceStep(props: SourceStepProps) {
  return props.mode === 'file' ? <FileSource {...props} /> : <BudgetSource {...props} />;
}

function StepButtons({ onCancel, onNext, disabled, busy }: { onCancel: () => void; onNext: () => void; disabled: boolean; busy: boolean }) {
  return (
    <div className="record-import-step-buttons">
      <button type="button" className="button" onClick={onCancel} disabled={busy} data-testid="record-import-cancel">
        <FormattedMessage id="common.cancel" />
      </button>
      <button type="button" className="button button-primary" onClick={onNext} disabled={disabled || busy} data-testid="record-import-next">
        <FormattedMessage id={busy ? 'recordImport.reading' : 'recordImport.next'} />
      </button>
    </div>
  );
}

function FileSource({ amountKey, period, classifiers, decimalSeparator, ready, onLoaded, onCancel }: SourceStepProps) {
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const read = useReadFile(period ? { classifiers, period, amountKey, decimalSeparator } : null, onLoaded);
  const example = period ? (monthKeys(period)[0] ?? '') : '';
  return (
    <div className="form" data-testid="record-import-source-step">
      <div className="field">
        <label htmlFor={fileId}>
          <FormattedMessage id="recordImport.file" />
        </label>
        <FileInput
          id={fileId}
          accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
          onChange={(event) => {
            read.reset();
            setFile(event.target.files?.[0] ?? null);
          }}
          describedBy={`${fileId}-hint`}
          testId="record-import-file"
        />
        <div className="field-hint" id={`${fileId}-hint`}>
          <FormattedMessage id="recordImport.fileHint" values={{ amountKey, month: example }} />
        </div>
      </div>
      {read.isError ? (
        <Alert kind="error" title={<FormattedMessage id="fileImport.fileReadError" />} testId="record-import-read-error">
          {/* The reader's own words are English and technical: the user is told what to choose instead. */}
          <FormattedMessage id="fileImport.fileReadErrorHint" />
        </Alert>
      ) : null}
      <StepButtons onCancel={onCancel} onNext={() => file && read.mutate(file)} disabled={!file || !ready || !period} busy={read.isPending} />
    </div>
  );
}

function BudgetSource({ documentId, budgetId, ready, onLoaded, onCancel }: SourceStepProps) {
  const intl = useIntl();
  const selectId = useId();
  const budgets = useQuery({ queryKey: ['records', 'import-source-budgets', documentId], queryFn: () => fetchDocumentBudgets(documentId) });
  const [sourceId, setSourceId] = useState('');
  // Another budget of the document that the caller can read (spec 3, section 4).
  const choices = (budgets.data ?? []).filter((budget) => budget.id !== budgetId && isReadable(budget));
  const load = useLoadBudget(onLoaded);
  return (
    <div className="form" data-testid="record-import-source-step">
      {budgets.isError ? <ErrorAlert error={budgets.error} testId="record-import-budgets-error" /> : null}
      {budgets.isSuccess && choices.length === 0 ? (
        <Alert kind="info" testId="record-import-no-budgets">
          <FormattedMessage id="recordImport.noBudgets" />
        </Alert>
      ) : (
        <div className="field">
          <label htmlFor={selectId}>
            <FormattedMessage id="recordImport.budget" />
          </label>
          <select id={selectId} value={sourceId} onChange={(event) => setSourceId(event.target.value)} data-testid="record-import-budget">
            <option value="">{intl.formatMessage({ id: 'recordImport.budgetPlaceholder' })}</option>
            {choices.map((budget) => (
              <option key={budget.id} value={budget.id}>
                {budget.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {load.isError ? <ErrorAlert error={load.error} testId="record-import-budget-error" /> : null}
      <StepButtons
        onCancel={onCancel}
        onNext={() => load.mutate({ id: sourceId, name: choices.find((budget) => budget.id === sourceId)?.name ?? sourceId })}
        disabled={sourceId === '' || !ready}
        busy={load.isPending}
      />
    </div>
  );
}
