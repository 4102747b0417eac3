import { FormattedMessage, useIntl } from 'react-intl';
import { Alert } from '../../../components/Alert';
import type { ImportRun } from './useImportPolling';

const STEPS = ['UNPROCESSED', 'PROCESSING', 'FINISHED'] as const;

/** The step of the three (spec 3, section 4: unprocessed, processing, finished) the import is at. */
function currentStep(run: ImportRun): number {
  if (run.phase === 'UNPROCESSED') return 0;
  if (run.phase === 'PROCESSING' || run.phase === 'TIMEOUT') return 1;
  return 2;
}

/** The import's progress in three steps, then its result. */
export function ImportProgress({ run }: { run: ImportRun }) {
  const intl = useIntl();
  const step = currentStep(run);
  return (
    <div className="record-import-progress" data-testid="record-import-progress" data-phase={run.phase}>
      <ol aria-label={intl.formatMessage({ id: 'recordImport.progress' })} className="record-import-steps">
        {STEPS.map((name, index) => (
          <li
            key={name}
            className={index < step || (index === step && step === 2) ? 'done' : index === step ? 'current' : 'pending'}
            aria-current={index === step ? 'step' : undefined}
            data-testid={`record-import-step-${name}`}
          >
            {/* The state is said by more than colour: a number, or a check mark once done. */}
            <span className="record-import-step-mark" aria-hidden="true">
              {index < step || step === 2 ? '✓' : `${index + 1}.`}
            </span>{' '}
            <FormattedMessage id={`recordImport.progress.${name}`} />
          </li>
        ))}
      </ol>
      {run.phase === 'SUCCESS' && run.result ? (
        <Alert kind={run.result.criticalErrorsCount > 0 || run.result.totalErrorsCount > 0 ? 'warning' : 'success'} testId="record-import-result">
          <FormattedMessage
            id="recordImport.result"
            values={{ inserted: run.result.recordsInserted, errors: run.result.totalErrorsCount, critical: run.result.criticalErrorsCount }}
          />
        </Alert>
      ) : null}
      {run.phase === 'ERROR' ? (
        <Alert kind="error" testId="record-import-failed">
          <FormattedMessage id="recordImport.failed" />
        </Alert>
      ) : null}
      {run.phase === 'TIMEOUT' ? (
        <Alert kind="info" testId="record-import-timeout">
          <FormattedMessage id="recordImport.progress.timeout" />
        </Alert>
      ) : null}
    </div>
  );
}
