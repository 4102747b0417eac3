import type { ImportRow, ImportSubBudget } from '@eelarve/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { newImportId } from '../../../api/import-id';
import { documentQuery } from '../../../app/document/current-document';
import { useCurrentUser } from '../../../app/session';
import { Alert } from '../../../components/Alert';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Modal } from '../../../components/Modal';
import { amountFormatOf } from '../../../i18n/format';
import { monthKeys } from '../export/workbook';
import { useDebouncedValue } from '../useDebouncedValue';
import { type ImportStarted, type ImportTarget, previewImport } from './api';
import { useStartImport } from './mutations';
import { ImportPreviewPanel } from './ImportPreviewPanel';
import { ImportProgress } from './ImportProgress';
import { ImportRowsTable, type RowsFilter } from './ImportRowsTable';
import { importFactsQuery } from './queries';
import { canImportRows, type CheckedRow, checkRowsInChunks, rowsToSend } from './rows';
import { type LoadedSource, SourceStep, type SourceMode } from './SourceStep';
import type { ImportRun } from './useImportPolling';
import './import.css';

/** Spec 3, section 9 (and 2, section 9): the source step is 700 px wide, the rows step 95% of the window (styles.css caps .modal at 95vw). */
export const SOURCE_STEP_WIDTH = 700;
const ROWS_STEP_WIDTH = 10_000;
/** The preview is asked again once the selection has rested this long. */
const PREVIEW_DEBOUNCE_MS = 600;

export interface ImportPlace {
  documentId: string;
  target: ImportTarget;
  /** The budget's or sub-budget's name, said in the modal. */
  targetName: string;
  /** The sub-budget's scheme classifiers and values the rows must match; null for a whole budget. */
  subBudget: ImportSubBudget | null;
}

/**
 * Import of records from a file or another budget (spec 3, section 4): choose the source, see each
 * row's errors and what the import would change, import the selected rows, then follow its status.
 * Back returns to the source; closing forgets the rows.
 */
export function RecordImportModal({
  mode,
  place,
  run,
  onStarted,
  onClose,
}: {
  mode: SourceMode;
  place: ImportPlace;
  /** This modal's import once started (polled by the menu). */
  run: ImportRun | null;
  onStarted: (started: ImportStarted) => void;
  onClose: () => void;
}) {
  const intl = useIntl();
  const me = useCurrentUser();
  const document = useQuery(documentQuery(place.documentId));
  const facts = useQuery(importFactsQuery(place.documentId));
  const decimalSeparator = amountFormatOf(me.organizationLocaleSettings).decimalSeparator;

  const [source, setSource] = useState<LoadedSource | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [filter, setFilter] = useState<RowsFilter>({ search: '', errorsOnly: false });
  const searchId = useId();

  const monthNames = useMemo(() => (document.data ? monthKeys(document.data.period) : []), [document.data]);
  const [rows, setRows] = useState<CheckedRow[]>([]);
  const [checking, setChecking] = useState<{ checked: number; total: number } | null>(null);
  // The latest source being checked: a result for an earlier one (the user went back meanwhile) is dropped.
  const checkToken = useRef(0);

  const checkSource = async (loaded: LoadedSource) => {
    if (!facts.data || !document.data) return;
    const token = ++checkToken.current;
    const { period } = document.data;
    const context = {
      classifiers: facts.data,
      monthCount: period.duration * 12,
      periodStart: { year: period.year, month: period.month },
      subBudget: place.subBudget,
      decimalSeparator,
    };
    setChecking({ checked: 0, total: loaded.rows.length });
    const checked = await checkRowsInChunks(loaded.rows, context, (count) => {
      if (token === checkToken.current) setChecking({ checked: count, total: loaded.rows.length });
    });
    if (token !== checkToken.current) return;
    setChecking(null);
    setSelected(new Set());
    setRows(checked);
    setSource(loaded);
  };

  const filterActive = filter.search.trim() !== '' || filter.errorsOnly;
  const canImport = canImportRows(rows, selected.size, filterActive);
  const list = useMemo<ImportRow[]>(() => (canImport ? rowsToSend(rows, selected) : []), [canImport, rows, selected]);

  // One id per attempt (these rows, this selection): pressing Import again after a lost answer is answered by the same import.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt starts whenever what would be sent changes.
  const importId = useMemo(() => newImportId(), [list]);
  const submit = useStartImport(place.target, onStarted);

  // The preview of what would change is asked once the selection rests (one attempt id names one list).
  const attempt = useMemo(() => ({ importId, list }), [importId, list]);
  const settled = useDebouncedValue(attempt, PREVIEW_DEBOUNCE_MS);
  const previewCurrent = settled === attempt;
  const preview = useQuery({
    queryKey: ['records', place.target.budgetId, 'import-preview', place.target.subBudgetId ?? '', settled.importId],
    queryFn: () => previewImport(place.target, settled.list),
    enabled: settled.list.length > 0 && previewCurrent && run === null,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });

  const step = run ? 'progress' : source ? 'rows' : 'source';
  const title = intl.formatMessage({ id: mode === 'file' ? 'recordImport.title.file' : 'recordImport.title.budget' });
  const back = () => {
    checkToken.current += 1;
    setSource(null);
    setRows([]);
    setSelected(new Set());
    setFilter({ search: '', errorsOnly: false });
  };

  const footer =
    step === 'rows' ? (
      <>
        <button type="button" className="button" onClick={back} disabled={submit.isPending} data-testid="record-import-back">
          <FormattedMessage id="recordImport.back" />
        </button>
        <button
          type="button"
          className="button button-primary"
          onClick={() => submit.mutate({ list, importId, originResourceName: source?.name ?? '' })}
          disabled={!canImport || submit.isPending}
          data-testid="record-import-submit"
        >
          <FormattedMessage id="recordImport.submit" />
        </button>
      </>
    ) : step === 'progress' ? (
      <button type="button" className="button" onClick={onClose} data-testid="record-import-close">
        <FormattedMessage id="common.close" />
      </button>
    ) : null;

  return (
    <Modal
      title={title}
      onClose={onClose}
      busy={submit.isPending}
      width={step === 'rows' ? ROWS_STEP_WIDTH : SOURCE_STEP_WIDTH}
      testId="record-import-modal"
      footer={footer}
    >
      <p className="muted record-import-target" data-testid="record-import-target">
        <FormattedMessage id={place.target.subBudgetId ? 'recordImport.target.subBudget' : 'recordImport.target.budget'} values={{ name: place.targetName }} />
      </p>
      {facts.isError ? <ErrorAlert error={facts.error} title={<FormattedMessage id="recordImport.factsFailed" />} testId="record-import-facts-error" /> : null}
      {step === 'source' && checking ? (
        <p role="status" data-testid="record-import-checking">
          <FormattedMessage id="recordImport.checking" values={checking} />
        </p>
      ) : null}
      {step === 'source' && !checking ? (
        <SourceStep
          mode={mode}
          documentId={place.documentId}
          budgetId={place.target.budgetId}
          amountKey={document.data?.recordAmountKey ?? 'summa'}
          period={document.data?.period ?? null}
          classifiers={facts.data ?? []}
          decimalSeparator={decimalSeparator}
          ready={facts.isSuccess && document.isSuccess}
          onLoaded={(loaded) => void checkSource(loaded)}
          onCancel={onClose}
        />
      ) : null}
      {step === 'rows' && source ? (
        <div className="record-import-rows-step" data-testid="record-import-rows-step">
          {source.ignoredHeaders.length > 0 ? (
            <p className="muted" data-testid="record-import-ignored">
              <FormattedMessage id="recordImport.ignoredColumns" values={{ columns: source.ignoredHeaders.join(', ') }} />
            </p>
          ) : null}
          {rows.length === 0 ? (
            <Alert kind="warning" testId="record-import-no-rows">
              <FormattedMessage id={mode === 'file' ? 'recordImport.noRows' : 'recordImport.budgetEmpty'} />
            </Alert>
          ) : (
            <>
              <RowsSummary rows={rows} selected={selected.size} />
              <div className="record-import-filters">
                <label htmlFor={searchId}>
                  <FormattedMessage id="recordImport.search" />
                </label>
                <input
                  id={searchId}
                  type="search"
                  value={filter.search}
                  onChange={(event) => setFilter((current) => ({ ...current, search: event.target.value }))}
                  data-testid="record-import-search"
                />
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={filter.errorsOnly}
                    onChange={(event) => setFilter((current) => ({ ...current, errorsOnly: event.target.checked }))}
                    data-testid="record-import-errors-only"
                  />
                  <FormattedMessage id="recordImport.errorsOnly" />
                </label>
              </div>
              <ImportRowsTable rows={rows} classifiers={facts.data ?? []} monthNames={monthNames} filter={filter} onSelectionChange={setSelected} />
              <ImportHint rows={rows} canImport={canImport} filterActive={filterActive} />
              {canImport ? <ImportPreviewPanel preview={preview.data} loading={preview.isFetching || !previewCurrent} error={preview.error} /> : null}
            </>
          )}
        </div>
      ) : null}
      {step === 'progress' && run ? <ImportProgress run={run} /> : null}
    </Modal>
  );
}

function RowsSummary({ rows, selected }: { rows: readonly CheckedRow[]; selected: number }) {
  const errors = rows.filter((row) => row.validationErrors.length > 0).length;
  const critical = rows.filter((row) => row.critical).length;
  return (
    <p data-testid="record-import-summary" data-rows={rows.length} data-errors={errors} data-critical={critical} data-selected={selected}>
      <FormattedMessage id="recordImport.summary" values={{ rows: rows.length, errors, critical, selected }} />
    </p>
  );
}

/** Why Import is greyed out (spec 3, section 4). */
function ImportHint({ rows, canImport, filterActive }: { rows: readonly CheckedRow[]; canImport: boolean; filterActive: boolean }) {
  if (canImport) return null;
  const reason = rows.every((row) => row.critical) ? 'recordImport.allCritical' : filterActive ? 'recordImport.filterActive' : 'recordImport.selectRows';
  return (
    <p className="muted" data-testid="record-import-hint" data-reason={reason}>
      <FormattedMessage id={reason} />
    </p>
  );
}
