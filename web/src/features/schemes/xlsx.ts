import { loadExcel, saveFile, XLSX_MIME } from '../../components/spreadsheet';

/** Builds a one-sheet workbook and lets the browser save it as `fileName`. */
export async function downloadXlsx(fileName: string, sheetName: string, header: string[], rows: string[][]): Promise<void> {
  const Excel = await loadExcel();
  const workbook = new Excel.Workbook();
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31) || 'Sheet1');
  sheet.addRow(header).font = { bold: true };
  for (const row of rows) sheet.addRow(row);
  sheet.columns.forEach((column) => {
    column.width = 24;
  });
  saveFile(fileName, await workbook.xlsx.writeBuffer(), XLSX_MIME);
}
