/**
 * Spreadsheets in the browser, shared by the imports and exports of several features: .xlsx
 * written with exceljs (AG Grid Community has no Excel export) and read with the shared reader of
 * cell values (readXlsxRows: a tenth of exceljs's time on a 100,000-row file), each loaded on first
 * use, and a small CSV reader.
 */

export async function loadExcel() {
  const module = await import('exceljs');
  return (module.default ?? module) as typeof import('exceljs');
}

/** Lets the browser save `data` as `fileName`. */
export function saveFile(fileName: string, data: BlobPart, type: string): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The first sheet of an .xlsx file, or a .csv file, as rows of cell values (text, numbers,
 * booleans, dates; a formula's result), from the first row with a value; an empty row inside
 * stays an empty row, so a row's place is its line in the file.
 */
export async function readTable(file: File): Promise<unknown[][]> {
  if (file.name.toLowerCase().endsWith('.csv')) return parseCsv(await file.text());
  const { readXlsxRows } = await import('@eelarve/shared/spreadsheet/read-xlsx');
  return readXlsxRows(new Uint8Array(await file.arrayBuffer()));
}

/** A small CSV reader: comma or semicolon separated (whichever the header uses), quotes doubled. */
export function parseCsv(text: string): string[][] {
  const source = text.replace(/^\uFEFF/, '');
  const firstLine = source.split(/\r?\n/, 1)[0] ?? '';
  const separator = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index];
    if (quoted) {
      if (char === '"' && source[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === separator) {
      row.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[index + 1] === '\n') index += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** A cell as the user sees it: rich text joined, a formula's result, a date as yyyy-MM-dd, trimmed. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const record = value as { text?: unknown; result?: unknown; richText?: Array<{ text: string }> };
    if (Array.isArray(record.richText))
      return record.richText
        .map((part) => part.text)
        .join('')
        .trim();
    if (record.text !== undefined) return cellText(record.text);
    if (record.result !== undefined) return cellText(record.result);
  }
  return String(value);
}
