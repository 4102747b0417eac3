import { useQuery } from '@tanstack/react-query';
import type { ColDef } from 'ag-grid-community';
import { useMemo } from 'react';
import { FormattedMessage, type IntlShape, useIntl } from 'react-intl';
import { documentQuery } from '../../../app/document/current-document';
import { Alert } from '../../../components/Alert';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Modal } from '../../../components/Modal';
import { Spinner } from '../../../components/Spinner';
import { DataGrid } from '../../../grid/DataGrid';
import { isMessageKey } from '../../../i18n/messages';
import { monthKeys } from '../export/workbook';
import { isExpiredReport, type ReportRow, reportClassifierFields, reportRow } from './error-report';
import { ErrorsCell, type ErrorsTableContext, errorRowClasses, importErrorText } from './ImportRowsTable';
import { importErrorReportQuery } from './queries';
import './import.css';

/** Spec 3, section 2: the modal is 95% of the window wide (styles.css caps .modal at 95vw); section 9: its table 45vh high. */
const REPORT_WIDTH = 10_000;
const TABLE_HEIGHT = '45vh';
const ROW_CLASSES = errorRowClasses<ReportRow>();

const isImportMessage = (key: string) => isMessageKey(`records.importError.${key}`) || isMessageKey(`error.${key}`);

/**
 * The import error report of a monitoring budget (spec 3, sections 2, 3 and 8): the rows of its
 * latest finished import that broke a rule, as they were sent (row number, name, amount, month
 * and year, classifier codes), each with its translated errors, critical ones said so. A report
 * that is gone says 'errorReportExpired'.
 */
export function ImportErrorReportModal({ documentId, budgetId, onClose }: { documentId: string; budgetId: string; onClose: () => void }) {
  const intl = useIntl();
  const report = useQuery(importErrorReportQuery(budgetId));
  const document = useQuery(documentQuery(documentId));
  const monthNames = useMemo(() => (document.data ? monthKeys(document.data.period) : []), [document.data]);
  const rows = useMemo(() => (report.data ? report.data.list.map((entry) => reportRow(entry, isImportMessage)) : []), [report.data]);
  const context = useMemo<ErrorsTableContext>(
    () => ({ errorText: (error) => importErrorText(intl, error, monthNames), criticalLabel: intl.formatMessage({ id: 'recordImport.critical' }) }),
    [intl, monthNames],
  );
  const columnDefs = useMemo(() => reportColumns(intl, reportClassifierFields(rows), context), [intl, rows, context]);

  return (
    <Modal
      title={<FormattedMessage id="recordImport.report.title" />}
      onClose={onClose}
      width={REPORT_WIDTH}
      testId="record-import-error-report"
      footer={
        <button type="button" className="button" onClick={onClose}>
          <FormattedMessage id="common.close" />
        </button>
      }
    >
      {report.isPending ? <Spinner /> : null}
      {report.isError ? (
        <ErrorAlert error={report.error} title={<FormattedMessage id="recordImport.report.loadFailed" />} testId="record-import-report-error" />
      ) : null}
      {report.isSuccess && isExpiredReport(report.data) ? (
        <Alert kind="info" testId="record-import-report-expired">
          <FormattedMessage id="dashboard.budget.import.errorReportExpired" />
        </Alert>
      ) : null}
      {report.isSuccess && report.data && !isExpiredReport(report.data) ? (
        <>
          <p data-testid="record-import-report-summary">
            <FormattedMessage id="recordImport.report.summary" values={{ rows: rows.length, errors: report.data.totalErrorsCount }} />
          </p>
          <DataGrid<ReportRow>
            testId="record-import-report-rows"
            height={TABLE_HEIGHT}
            rowData={rows}
            columnDefs={columnDefs}
            context={context}
            getRowId={({ data }) => String(data.rowNumber)}
            rowClassRules={ROW_CLASSES}
            ensureDomOrder
          />
        </>
      ) : null}
    </Modal>
  );
}

function reportColumns(intl: IntlShape, classifierFields: readonly string[], context: ErrorsTableContext): ColDef<ReportRow>[] {
  const header = (id: Parameters<IntlShape['formatMessage']>[0]['id']) => intl.formatMessage({ id });
  return [
    { colId: 'line', field: 'rowNumber', headerName: header('recordImport.column.line'), width: 100, sort: 'asc' },
    { colId: 'name', field: 'name', headerName: header('recordImport.column.name'), flex: 1.4, minWidth: 180 },
    { colId: 'amount', field: 'amount', headerName: header('recordImport.column.amount'), width: 140, type: 'rightAligned' },
    { colId: 'month', field: 'month', headerName: header('recordImport.column.month'), width: 100, type: 'rightAligned' },
    { colId: 'year', field: 'year', headerName: header('recordImport.column.year'), width: 100, type: 'rightAligned' },
    ...classifierFields.map<ColDef<ReportRow>>((field) => ({
      colId: `classifier-${field}`,
      headerName: field,
      flex: 1,
      minWidth: 130,
      valueGetter: ({ data }) => data?.classifiers[field] ?? '',
    })),
    {
      colId: 'errors',
      headerName: header('recordImport.column.errors'),
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
