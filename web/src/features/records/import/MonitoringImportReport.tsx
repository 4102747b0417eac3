import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useCurrentUser } from '../../../app/session';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Spinner } from '../../../components/Spinner';
import { DEFAULT_DATE_FORMAT, formatDate } from '../../../i18n/format';
import { ImportErrorReportModal } from './ImportErrorReportModal';
import { importReportQuery } from './queries';

/** What the budget page gives a monitoring budget's import report (the app composes the two features). */
export interface MonitoringImportReportProps {
  documentId: string;
  budgetId: string;
}

/**
 * A monitoring budget's latest finished import (spec 3, sections 2 and 7: GET .../import/report):
 * its source, when it ended and its counts, and the way to its error report (section 2: the
 * import error report is for monitoring budgets). Terms of a description list: the budget
 * overview's facts.
 */
export function MonitoringImportReport({ documentId, budgetId }: MonitoringImportReportProps) {
  const me = useCurrentUser();
  const report = useQuery(importReportQuery(budgetId));
  const [open, setOpen] = useState(false);
  const dateTimeFormat = `${me.organizationLocaleSettings?.dateFormat ?? DEFAULT_DATE_FORMAT} HH:mm`;
  const latest = report.data;
  return (
    <>
      <dt>
        <FormattedMessage id="recordImport.report.latest" />
      </dt>
      <dd data-testid="record-import-latest" data-status={latest?.status}>
        {report.isPending ? <Spinner /> : null}
        {report.isError ? <ErrorAlert error={report.error} title={<FormattedMessage id="recordImport.report.loadFailed" />} /> : null}
        {report.isSuccess && !latest ? (
          <span className="muted">
            <FormattedMessage id="recordImport.report.none" />
          </span>
        ) : null}
        {latest ? (
          <div className="record-import-latest">
            <span>
              <FormattedMessage
                id="recordImport.report.source"
                values={{ source: latest.extra.originResourceName || '—', time: formatDate(latest.updatedAt, dateTimeFormat) }}
              />{' '}
              {latest.status === 'SUCCESS' && latest.result ? (
                <FormattedMessage
                  id="recordImport.result"
                  values={{ inserted: latest.result.recordsInserted, errors: latest.result.totalErrorsCount, critical: latest.result.criticalErrorsCount }}
                />
              ) : (
                <FormattedMessage id="recordImport.failed" />
              )}
            </span>
            <button type="button" className="button" onClick={() => setOpen(true)} data-testid="record-import-report-open">
              <FormattedMessage id="recordImport.report.open" />
            </button>
          </div>
        ) : null}
        {open ? <ImportErrorReportModal documentId={documentId} budgetId={budgetId} onClose={() => setOpen(false)} /> : null}
      </dd>
    </>
  );
}
