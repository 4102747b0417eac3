import type { BudgetRecord, Document } from '@eelarve/shared';
import { useMutation } from '@tanstack/react-query';
import { useIntl } from 'react-intl';
import { api } from '../../../api';
import { useCurrentUser } from '../../../app/session';
import { loadExcel, saveFile, XLSX_MIME } from '../../../components/spreadsheet';
import { useToasts } from '../../../components/Toasts';
import { amountFormatOf, DEFAULT_DATE_FORMAT } from '../../../i18n/format';
import { fetchClassifiers } from '../api/requests';
import { buildRecordsWorkbook, type ExportLabels, exportFileName, type RecordsSheet } from './workbook';

const enc = encodeURIComponent;

/** What is exported: one sub-budget's records, or a scheme's (a sheet per sub-budget, and the unfit records). */
export type ExportSource =
  | { kind: 'subBudget'; budgetId: string; subBudgetId: string; schemeId?: string; name: string }
  | { kind: 'scheme'; budgetId: string; schemeId: string; name: string; subBudgets: ReadonlyArray<{ id: string; name: string }> };

/** The sub-budget whose records fit no sub-budget of the scheme (spec 3, section 2). */
const UNFIT_SUB_BUDGET_ID = '-2';

async function sheetsOf(source: ExportSource, unfitName: string): Promise<RecordsSheet[]> {
  if (source.kind === 'subBudget') {
    const query = source.schemeId ? `?schemaId=${enc(source.schemeId)}` : '';
    const records = await api.get<BudgetRecord[]>(`/api/budget/${enc(source.budgetId)}/sub-budget/${enc(source.subBudgetId)}/records${query}`);
    return [{ name: source.name, records }];
  }
  const records = await api.get<Array<BudgetRecord & { subBudgetId: string }>>(`/api/budget/${enc(source.budgetId)}/schema/${enc(source.schemeId)}/records`);
  const bySubBudget = new Map<string, BudgetRecord[]>();
  for (const record of records) bySubBudget.set(record.subBudgetId, [...(bySubBudget.get(record.subBudgetId) ?? []), record]);
  const sheets = source.subBudgets.map((subBudget) => ({ name: subBudget.name, records: bySubBudget.get(subBudget.id) ?? [] }));
  const unfit = bySubBudget.get(UNFIT_SUB_BUDGET_ID);
  return unfit ? [...sheets, { name: unfitName, records: unfit }] : sheets;
}

/**
 * Exports records to .xlsx built in the browser (spec 3, section 9: "Export to spreadsheet is built
 * on the client"), in the organisation's decimal places and date format.
 */
export function useRecordsExport(documentId: string) {
  const intl = useIntl();
  const me = useCurrentUser();
  const { showError } = useToasts();
  return useMutation({
    mutationFn: async (source: ExportSource) => {
      const [document, classifiers, sheets, Excel] = await Promise.all([
        api.get<Document>(`/api/document/${enc(documentId)}`),
        fetchClassifiers(documentId),
        sheetsOf(source, intl.formatMessage({ id: 'recordExport.unfit' })),
        loadExcel(),
      ]);
      const settings = me.organizationLocaleSettings;
      const labels: ExportLabels = {
        name: intl.formatMessage({ id: 'recordExport.column.name' }),
        amount: intl.formatMessage({ id: 'recordExport.column.amount' }),
        yearTotal: (year) => intl.formatMessage({ id: 'recordExport.column.yearTotal' }, { year: String(year) }),
        promoted: intl.formatMessage({ id: 'recordExport.column.promoted' }),
        updatedAt: intl.formatMessage({ id: 'recordExport.column.updatedAt' }),
        updatedBy: intl.formatMessage({ id: 'recordExport.column.updatedBy' }),
        yes: intl.formatMessage({ id: 'recordExport.yes' }),
        no: intl.formatMessage({ id: 'recordExport.no' }),
      };
      const workbook = buildRecordsWorkbook(Excel, {
        sheets,
        classifiers: classifiers.map((classifier) => ({ id: classifier.id, fieldName: classifier.fieldName })),
        period: document.period,
        amountKey: document.recordAmountKey,
        settings: { decimalPlaces: amountFormatOf(settings).decimalPlaces, dateFormat: settings?.dateFormat ?? DEFAULT_DATE_FORMAT },
        labels,
      });
      saveFile(exportFileName(source.name), await workbook.xlsx.writeBuffer(), XLSX_MIME);
    },
    onError: showError,
  });
}
