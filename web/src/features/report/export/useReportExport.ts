import { useMutation } from '@tanstack/react-query';
import { loadExcel, saveFile, XLSX_MIME } from '../../../components/spreadsheet';
import { exportFileName } from '../../../components/spreadsheet-export';
import { useToasts } from '../../../components/Toasts';
import { buildReportWorkbook, type ReportExport } from './workbook';

/** Exports the report as the screen shows it to .xlsx, built in the browser (spec 3, section 7: no call). */
export function useReportExport() {
  const { showError } = useToasts();
  return useMutation({
    mutationFn: async ({ fileName, content }: { fileName: string; content: ReportExport }) => {
      const Excel = await loadExcel();
      const workbook = buildReportWorkbook(Excel, content);
      saveFile(exportFileName(fileName), await workbook.xlsx.writeBuffer(), XLSX_MIME);
    },
    onError: showError,
  });
}
