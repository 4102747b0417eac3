import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { type CellValue, readXlsxRows, UnreadableWorkbookError } from './read-xlsx';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Saved by LibreOffice Calc (web/e2e/record-import.test.ts tells how it was made). */
const LIBREOFFICE_FILE = path.join(ROOT, 'web', 'e2e', 'fixtures', 'record-import-libreoffice.xlsx');

/** A cell as exceljs gives it, reduced to the reader's values: a formula's result, rich text joined, an error's text. */
function plain(value: ExcelJS.CellValue): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object' || value instanceof Date) return value;
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('error' in value) return value.error;
  if ('result' in value) return plain(value.result as ExcelJS.CellValue);
  if ('text' in value) return String(value.text);
  return null;
}

/** The first sheet as exceljs loads it, in the reader's shape (rows from the first with a value, empty rows kept as []). */
async function readWithExcelJs(bytes: Uint8Array): Promise<CellValue[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: CellValue[][] = [];
  let first: number | undefined;
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const values = (row.values as ExcelJS.CellValue[]).slice(1).map(plain);
    while (values.length > 0 && values.at(-1) === null) values.pop();
    if (values.length === 0) return;
    first ??= number;
    while (rows.length < number - first) rows.push([]);
    rows.push(Array.from(values, (value) => value ?? null));
  });
  return rows;
}

async function written(fill: (workbook: ExcelJS.Workbook) => void): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  fill(workbook);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** The same rows written with inline strings (exceljs's streaming writer, as the records benchmark writes its file). */
async function writtenInline(rows: readonly (readonly ExcelJS.CellValue[])[]): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  const { PassThrough } = await import('node:stream');
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Kirjed');
  for (const row of rows) sheet.addRow([...row]).commit();
  await workbook.commit();
  return new Uint8Array(Buffer.concat(chunks));
}

describe('readXlsxRows', () => {
  it('reads every kind of cell as exceljs does: text, numbers, booleans, dates, formulas, rich text and errors', async () => {
    const bytes = await written((workbook) => {
      const sheet = workbook.addWorksheet('Esimene');
      sheet.addRow(['nimi', 'summa', 'kuupäev', 'tõene', 'valem', 'tekstivalem']);
      sheet.addRow([
        'Rida & <üks> "jutumärgid"',
        1234.56,
        new Date(Date.UTC(2027, 0, 1)),
        true,
        { formula: 'B2*2', result: 2469.12 },
        { formula: '"a"&"b"', result: 'ab' },
      ]);
      sheet.addRow([' tühikud ümber ', -0.01, new Date(Date.UTC(2026, 11, 31, 12, 30)), false, { error: '#DIV/0!' }]);
      sheet.addRow([]);
      sheet.addRow([{ richText: [{ text: 'rikas ' }, { font: { bold: true }, text: 'tekst' }] }, 1e15, null, null, null, null, 'kaugel']);
      sheet.getCell('AB6').value = 'veerg AB';
      sheet.addRow(['rea\nvahetus\tja tab']);
      sheet.getColumn(3).numFmt = 'dd.mm.yyyy';
      sheet.getCell('C3').numFmt = 'yyyy-mm-dd hh:mm';
      workbook.addWorksheet('Teine').addRow(['not this sheet']);
    });
    const rows = readXlsxRows(bytes);
    expect(rows).toEqual(await readWithExcelJs(bytes));
    expect(rows[1]).toEqual(['Rida & <üks> "jutumärgid"', 1234.56, new Date(Date.UTC(2027, 0, 1)), true, 2469.12, 'ab']);
    expect(rows[2]).toEqual([' tühikud ümber ', -0.01, new Date(Date.UTC(2026, 11, 31, 12, 30)), false, '#DIV/0!']);
    expect(rows[3]).toEqual([]);
    expect(rows[4]?.[0]).toBe('rikas tekst');
    expect(rows[5]?.[27]).toBe('veerg AB');
    expect(rows[6]).toEqual(['rea\nvahetus\tja tab']);
  });

  it('reads a file saved by LibreOffice Calc (shared strings, its own styles) as exceljs does', async () => {
    const bytes = new Uint8Array(readFileSync(LIBREOFFICE_FILE));
    const rows = readXlsxRows(bytes);
    expect(rows.length).toBeGreaterThan(3);
    expect(rows).toEqual(await readWithExcelJs(bytes));
  });

  it('starts at the first row with a value and keeps the places of empty rows after it', async () => {
    const bytes = await written((workbook) => {
      const sheet = workbook.addWorksheet('Lehel');
      sheet.getCell('B3').value = 'päis';
      sheet.getCell('B6').value = 'rida';
    });
    expect(readXlsxRows(bytes)).toEqual([[null, 'päis'], [], [], [null, 'rida']]);
  });

  it('decodes the _xHHHH_ escapes of OOXML strings', () => {
    const bytes = workbookOf(
      '<row r="1"><c r="A1" t="inlineStr"><is><t>a_x000D_b_x005F_x0041_</t></is></c><c r="B1" t="s"><v>0</v></c></row>',
      '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><r><t>x_x0009_</t></r><rPh><t>phonetic</t></rPh><r><t>y</t></r></si></sst>',
    );
    expect(readXlsxRows(bytes)).toEqual([['a\rb_x0041_', 'x\ty']]);
  });

  it('reads numbers in the 1904 date system and cells written without references', () => {
    const bytes = workbookOf('<row><c s="1"><v>0</v></c><c><v>42</v></c></row><row><c t="b"><v>1</v></c></row>', undefined, {
      date1904: true,
      styles: '<styleSheet><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>',
    });
    expect(readXlsxRows(bytes)).toEqual([[new Date(Date.UTC(1904, 0, 1)), 42], [true]]);
  });

  it('refuses what is not an .xlsx workbook', () => {
    expect(() => readXlsxRows(new TextEncoder().encode('nimi;summa\nRida;1'))).toThrow(UnreadableWorkbookError);
    expect(() => readXlsxRows(zipSync({ 'hello.txt': new TextEncoder().encode('hi') }))).toThrow(UnreadableWorkbookError);
    expect(() => readXlsxRows(workbookOf('<row r="2"><c r="A2"><v>1</v></c></row><row r="1"><c r="A1"><v>2</v></c></row>'))).toThrow(UnreadableWorkbookError);
    expect(() => readXlsxRows(workbookOf('<row r="1"><c r="A1"><v>1</v></row>'))).toThrow(UnreadableWorkbookError);
  });

  it('reads any grid of text, numbers and booleans as exceljs wrote it, with shared or inline strings', async () => {
    const cell = fc.oneof(
      fc.constant(null),
      fc.string({ unit: 'grapheme', maxLength: 20 }).filter((text) => text.trim() !== ''),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((number) => (Object.is(number, -0) ? 0 : number)),
      fc.boolean(),
    );
    const grid = fc.array(fc.array(cell, { maxLength: 8 }), { minLength: 1, maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(grid, async (rows) => {
        const shared = await written((workbook) => {
          const sheet = workbook.addWorksheet('Juhuslik');
          for (const row of rows) sheet.addRow(row);
        });
        expect(readXlsxRows(shared)).toEqual(await readWithExcelJs(shared));
        const inline = await writtenInline(rows);
        expect(readXlsxRows(inline)).toEqual(await readWithExcelJs(inline));
      }),
      { numRuns: 40 },
    );
  });
});

/** A minimal workbook around the given sheet rows (and shared strings, styles), as a writer other than exceljs might make it. */
function workbookOf(sheetRows: string, sharedStrings?: string, options: { date1904?: boolean; styles?: string } = {}): Uint8Array {
  const encode = (text: string) => new TextEncoder().encode(text);
  const relationship = (id: string, type: string, target: string) =>
    `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;
  const files: Record<string, Uint8Array> = {
    '_rels/.rels': encode(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationship('rId1', 'officeDocument', 'xl/workbook.xml')}</Relationships>`,
    ),
    'xl/workbook.xml': encode(
      `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:rel="http://schemas.openxmlformats.org/officeDocument/2006/relationships">${
        options.date1904 ? '<workbookPr date1904="1"/>' : ''
      }<sheets><sheet name="Leht" sheetId="1" rel:id="rId7"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': encode(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationship('rId7', 'worksheet', '/xl/worksheets/sheet1.xml')}${
        sharedStrings ? relationship('rId8', 'sharedStrings', 'sharedStrings.xml') : ''
      }${options.styles ? relationship('rId9', 'styles', './styles.xml') : ''}</Relationships>`,
    ),
    'xl/worksheets/sheet1.xml': encode(
      `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetRows}</sheetData></worksheet>`,
    ),
  };
  if (sharedStrings) files['xl/sharedStrings.xml'] = encode(sharedStrings);
  if (options.styles) files['xl/styles.xml'] = encode(options.styles);
  return zipSync(files);
}
