/**
 * What the .xlsx exports of several features share (spec 3, section 9 "Exports"): the column width,
 * the number formats, the formula guard and exact amounts as spreadsheet numbers.
 */

/** Spec 3, section 9: every column is 42.5 wide. */
export const EXPORT_COLUMN_WIDTH = 42.5;

export const DEFAULT_SHEET_NAME = 'unnamed';

/** The built-in "Text" number format: what the user types there later stays text too. */
export const TEXT_FORMAT = '@';

/** '#,##0.00' with the user's decimal places (0 → '#,##0'). */
export function amountNumberFormat(decimalPlaces: number): string {
  const places = Math.min(5, Math.max(0, Math.trunc(decimalPlaces)));
  return places === 0 ? '#,##0' : `#,##0.${'0'.repeat(places)}`;
}

/** Text a spreadsheet would run as a formula when typed: =, +, - or @ first. */
export function looksLikeFormula(text: string): boolean {
  return /^[=+\-@]/.test(text);
}

/**
 * An exact decimal text as a spreadsheet number. A spreadsheet holds 15 significant digits; the
 * shortest text of the double is the amount itself up to there (amounts beyond that are rare: a
 * trillion with cents).
 */
export function amountCell(text: string | null | undefined): number | null {
  if (text === null || text === undefined || text === '') return null;
  return Number(text);
}

/** A file name from a sub-budget's or budget's name: what the file systems allow, never empty. */
export function exportFileName(name: string): string {
  const cleaned = name
    .replace(/[\\/:*?"<>|]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return `${cleaned === '' ? DEFAULT_SHEET_NAME : cleaned}.xlsx`;
}
