import { parseCsv } from './model';

/** .xlsx in the browser with exceljs (AG Grid Community has no Excel export); loaded on first use. */
async function loadExcel() {
  const module = await import('exceljs');
  return (module.default ?? module) as typeof import('exceljs');
}

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
  const buffer = await workbook.xlsx.writeBuffer();
  const blob = new Blob([buffer], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The first sheet of an .xlsx file, or a .csv file, as rows of cell values. */
export async function readTable(file: File): Promise<unknown[][]> {
  if (file.name.toLowerCase().endsWith('.csv')) return parseCsv(await file.text());
  const Excel = await loadExcel();
  const workbook = new Excel.Workbook();
  await workbook.xlsx.load(await file.arrayBuffer());
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const values = Array.isArray(row.values) ? row.values.slice(1) : [];
    rows.push(values);
  });
  return rows;
}
