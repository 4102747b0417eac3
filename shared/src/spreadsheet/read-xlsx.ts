import { type Unzipped, unzipSync } from 'fflate';
import { SaxesParser, type SaxesTagPlain } from 'saxes';

/**
 * The first worksheet of an .xlsx file as rows of cell values, for the imports that read files
 * in the browser (records, sub-budgets) and the benchmark that plays them.
 *
 * Why not exceljs, which writes the product's exports: its workbook model costs ~50 µs per cell
 * (a 100,000-row import file, 1.7 million cells, took 5 s to load, its streaming reader 4 s),
 * while reading the values alone is a zip entry inflated (fflate) and one pass of a SAX parser
 * (saxes, the parser exceljs itself uses): about a second for the same file. Read as exceljs
 * reads them: shared and inline strings (rich text joined, phonetic runs left out), numbers,
 * booleans, a formula's cached result, an error's text, and numbers in a date format as dates
 * (the 1900 or 1904 date system of the workbook).
 */
export type CellValue = string | number | boolean | Date | null;

export class UnreadableWorkbookError extends Error {
  constructor(reason: string) {
    super(`not a readable .xlsx workbook: ${reason}`);
    this.name = 'UnreadableWorkbookError';
  }
}

/** The sheet's limits in Excel: a cell or row beyond them is a damaged file, not a bigger sheet. */
const MAX_ROWS = 1_048_576;
const MAX_COLUMNS = 16_384;

const RELATIONSHIP_TYPES = {
  officeDocument: '/officeDocument',
  sharedStrings: '/sharedStrings',
  styles: '/styles',
} as const;

/**
 * Rows of the workbook's first sheet: rows[i][j] is row i + 1, column j + 1 of the sheet, from
 * its first row holding a value; an empty row inside stays as [] so row numbers hold; a missing
 * cell is null, and trailing missing cells are left off.
 */
export function readXlsxRows(bytes: Uint8Array): CellValue[][] {
  // The small parts that say where the rest is first; then only the parts read, not every sheet of the workbook.
  const index = unzip(bytes, (name) => name.endsWith('.rels'));
  const workbookPath = target(relationships(index, '_rels/.rels'), '', RELATIONSHIP_TYPES.officeDocument) ?? 'xl/workbook.xml';
  const workbook = readWorkbook(
    text(
      unzip(bytes, (name) => name === workbookPath),
      workbookPath,
    ),
  );
  if (!workbook.firstSheetId) throw new UnreadableWorkbookError('the workbook has no sheet');
  const base = directoryOf(workbookPath);
  const rels = relationships(index, relsPathOf(workbookPath));
  const sheetPath = target(rels, base, (relationship) => relationship.id === workbook.firstSheetId);
  if (!sheetPath) throw new UnreadableWorkbookError('the first sheet is missing');
  const stringsPath = target(rels, base, RELATIONSHIP_TYPES.sharedStrings);
  const stylesPath = target(rels, base, RELATIONSHIP_TYPES.styles);
  const parts = unzip(bytes, (name) => name === sheetPath || name === stringsPath || name === stylesPath);
  const strings = stringsPath && parts[stringsPath] ? readSharedStrings(text(parts, stringsPath)) : [];
  const dateStyles = stylesPath && parts[stylesPath] ? readDateStyles(text(parts, stylesPath)) : [];
  return readSheet(text(parts, sheetPath), { strings, dateStyles, date1904: workbook.date1904 });
}

// ---- the zip and its parts -----------------------------------------------------------------

function unzip(bytes: Uint8Array, wanted: (name: string) => boolean): Unzipped {
  try {
    return unzipSync(bytes, { filter: (file) => wanted(file.name) });
  } catch (error) {
    throw new UnreadableWorkbookError(error instanceof Error ? error.message : String(error));
  }
}

const decoder = new TextDecoder();

function text(parts: Unzipped, path: string): string {
  const part = parts[path];
  if (!part) throw new UnreadableWorkbookError(`${path} is missing`);
  return decoder.decode(part);
}

const directoryOf = (path: string) => path.slice(0, path.lastIndexOf('/') + 1);
const relsPathOf = (path: string) => `${directoryOf(path)}_rels/${path.slice(path.lastIndexOf('/') + 1)}.rels`;
const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** A relationship's target as a path in the zip: absolute ('/xl/...') or relative to the source part's folder, '..' resolved. */
function resolvePath(base: string, targetPath: string): string {
  const segments = (targetPath.startsWith('/') ? targetPath.slice(1) : base + targetPath).split('/');
  const resolved: string[] = [];
  for (const segment of segments) {
    if (segment === '..') resolved.pop();
    else if (segment !== '.' && segment !== '') resolved.push(segment);
  }
  return resolved.join('/');
}

interface Relationship {
  id: string;
  type: string;
  target: string;
}

function relationships(parts: Unzipped, relsPath: string): Relationship[] {
  if (!parts[relsPath]) return [];
  const found: Relationship[] = [];
  parse(text(parts, relsPath), (tag) => {
    if (localName(tag.name) !== 'Relationship') return;
    const { Id, Type, Target, TargetMode } = tag.attributes;
    if (Id && Type && Target && TargetMode !== 'External') found.push({ id: Id, type: Type, target: Target });
  });
  return found;
}

/** The target of the relationship of the given type (by its ending) or the one `which` picks, as a path in the zip. */
function target(relationships: readonly Relationship[], base: string, which: string | ((relationship: Relationship) => boolean)): string | undefined {
  const picks = typeof which === 'string' ? (relationship: Relationship) => relationship.type.endsWith(which) : which;
  const found = relationships.find(picks);
  return found && resolvePath(base, found.target);
}

/** Parses a part once, with a handler for start tags and, optionally, for text and end tags. */
function parse(xml: string, onOpen: (tag: SaxesTagPlain) => void, onText?: (text: string) => void, onClose?: (name: string) => void): void {
  const parser = new SaxesParser();
  parser.on('opentag', onOpen);
  if (onText) parser.on('text', onText);
  if (onClose) parser.on('closetag', (tag) => onClose(tag.name));
  parser.on('error', (error) => {
    throw new UnreadableWorkbookError(error.message);
  });
  parser.write(xml).close();
}

// ---- the workbook, its strings and styles --------------------------------------------------

function readWorkbook(xml: string): { firstSheetId: string | undefined; date1904: boolean } {
  let firstSheetId: string | undefined;
  let date1904 = false;
  parse(xml, (tag) => {
    const name = localName(tag.name);
    if (name === 'workbookPr') date1904 = tag.attributes.date1904 === '1' || tag.attributes.date1904 === 'true';
    if (name === 'sheet' && firstSheetId === undefined) {
      // The relationship id's attribute is r:id, whatever prefix the file gives the namespace.
      const idAttribute = Object.keys(tag.attributes).find((key) => key.includes(':') && localName(key) === 'id');
      firstSheetId = idAttribute && tag.attributes[idAttribute];
    }
  });
  return { firstSheetId, date1904 };
}

/** OOXML escapes characters XML cannot hold as _xHHHH_ (and a literal "_x" as _x005F_x). */
const decodeEscapes = (value: string) =>
  value.includes('_x') ? value.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))) : value;

/**
 * Collects the text of string items (<si> in the shared strings, <is> in a cell): the <t> of the
 * item or of its rich-text runs, not the phonetic <rPh> runs.
 */
class StringItemText {
  private depthInPhonetic = 0;
  private inText = false;
  private value = '';

  open(name: string): void {
    if (name === 'rPh') this.depthInPhonetic++;
    else if (name === 't' && this.depthInPhonetic === 0) this.inText = true;
  }

  text(value: string): void {
    if (this.inText) this.value += value;
  }

  close(name: string): void {
    if (name === 'rPh') this.depthInPhonetic--;
    else if (name === 't') this.inText = false;
  }

  take(): string {
    const value = decodeEscapes(this.value);
    this.value = '';
    return value;
  }
}

function readSharedStrings(xml: string): string[] {
  const strings: string[] = [];
  const item = new StringItemText();
  parse(
    xml,
    (tag) => item.open(localName(tag.name)),
    (value) => item.text(value),
    (name) => {
      const local = localName(name);
      if (local === 'si') strings.push(item.take());
      else item.close(local);
    },
  );
  return strings;
}

/** Excel's built-in number formats that show dates or times. */
const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** A format code shows a date when, outside quoted text and [..] sections, it has a date or time part (as exceljs decides). */
const isDateFormat = (code: string) => /[ymdhMsb]/.test(code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));

/** Per cell style (the s attribute's index into cellXfs): whether its number format is a date. */
function readDateStyles(xml: string): boolean[] {
  const customDates = new Map<number, boolean>();
  const styles: boolean[] = [];
  let inCellXfs = false;
  parse(
    xml,
    (tag) => {
      const name = localName(tag.name);
      if (name === 'numFmt') customDates.set(Number(tag.attributes.numFmtId), isDateFormat(tag.attributes.formatCode ?? ''));
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        const id = Number(tag.attributes.numFmtId ?? 0);
        styles.push(customDates.get(id) ?? BUILT_IN_DATE_FORMATS.has(id));
      }
    },
    undefined,
    (name) => {
      if (localName(name) === 'cellXfs') inCellXfs = false;
    },
  );
  return styles;
}

// ---- the sheet ------------------------------------------------------------------------------

interface SheetContext {
  strings: readonly string[];
  dateStyles: readonly boolean[];
  date1904: boolean;
}

/** A column's letters (the A1 reference's) as its 0-based index; -1 without letters. */
function columnIndex(reference: string): number {
  let index = 0;
  let letters = 0;
  for (; letters < reference.length; letters++) {
    const code = reference.charCodeAt(letters);
    if (code < 65 || code > 90) break;
    index = index * 26 + (code - 64);
  }
  return letters === 0 ? -1 : index - 1;
}

const MILLISECONDS_PER_DAY = 86_400_000;
/** Day 25569 of the 1900 date system is 1970-01-01; the 1904 system counts 1462 days fewer. */
const dateOf = (serial: number, date1904: boolean) => new Date(Math.round((serial - 25_569 + (date1904 ? 1_462 : 0)) * MILLISECONDS_PER_DAY));

/** The value of one <c>: its type (t), style (s) and <v> text, or an inline string. */
function cellValue(type: string | undefined, style: number, raw: string, inline: string | null, context: SheetContext): CellValue {
  switch (type) {
    case 'inlineStr':
      return inline ?? '';
    case 's': {
      const value = context.strings[Number(raw)];
      return value === undefined ? null : value;
    }
    case 'str':
    case 'e':
      return decodeEscapes(raw);
    case 'b':
      return raw === '1' || raw === 'true';
    case 'd': {
      const date = new Date(raw);
      return Number.isNaN(date.getTime()) ? raw : date;
    }
    default: {
      if (raw === '') return null;
      const number = Number(raw);
      if (Number.isNaN(number)) return raw;
      return context.dateStyles[style] ? dateOf(number, context.date1904) : number;
    }
  }
}

function readSheet(xml: string, context: SheetContext): CellValue[][] {
  const rows: CellValue[][] = [];
  let row: CellValue[] | null = null;
  let rowNumber = 0;
  let column = -1;
  let type: string | undefined;
  let style = 0;
  let raw = '';
  let inValue = false;
  let inInline = false;
  let inline: string | null = null;
  const item = new StringItemText();
  // Rows from the first with a value; the empty ones between keep their places.
  let firstRow: number | undefined;
  const place = (values: CellValue[], number: number) => {
    firstRow ??= number;
    const index = number - firstRow;
    if (index < rows.length) throw new UnreadableWorkbookError(`row ${number} comes after a later row`);
    while (rows.length < index) rows.push([]);
    rows.push(values);
  };
  const onOpen = (tag: SaxesTagPlain) => {
    const name = localName(tag.name);
    if (name === 'c') {
      const reference = tag.attributes.r;
      column = reference ? columnIndex(reference) : column + 1;
      if (column < 0 || column >= MAX_COLUMNS) throw new UnreadableWorkbookError(`a cell outside the sheet (${reference})`);
      type = tag.attributes.t;
      style = tag.attributes.s ? Number(tag.attributes.s) : 0;
      raw = '';
      inline = null;
    } else if (name === 'v') inValue = true;
    else if (name === 'is') inInline = true;
    else if (inInline) item.open(name);
    else if (name === 'row') {
      rowNumber = tag.attributes.r ? Number(tag.attributes.r) : rowNumber + 1;
      if (!Number.isInteger(rowNumber) || rowNumber < 1 || rowNumber > MAX_ROWS)
        throw new UnreadableWorkbookError(`a row outside the sheet (${tag.attributes.r})`);
      row = [];
      column = -1;
    }
  };
  const onText = (value: string) => {
    if (inValue) raw += value;
    else if (inInline) item.text(value);
  };
  const onClose = (tagName: string) => {
    const name = localName(tagName);
    if (name === 'v') inValue = false;
    else if (name === 'is') {
      inInline = false;
      inline = item.take();
    } else if (inInline) item.close(name);
    else if (name === 'c' && row) {
      const value = cellValue(type, style, raw, inline, context);
      if (value !== null) {
        while (row.length < column) row.push(null);
        row[column] = value;
      }
    } else if (name === 'row' && row) {
      if (row.length > 0) place(row, rowNumber);
      row = null;
    }
  };
  parse(xml, onOpen, onText, onClose);
  return rows;
}
