/**
 * The document period in months (spec 3, section 2: a column's period lies between the document's
 * start and end), as the period picker and the column titles need it.
 */

export interface DocumentPeriod {
  year: number;
  /** 1-12. */
  month: number;
  /** Years. */
  duration: number;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** yyyy-MM of the month `offset` months after the period's first. */
export function monthAt(period: DocumentPeriod, offset: number): string {
  const zeroBased = period.month - 1 + offset;
  return `${period.year + Math.floor(zeroBased / 12)}-${pad((zeroBased % 12) + 1)}`;
}

export const periodMonths = (period: DocumentPeriod) => period.duration * 12;
export const firstMonth = (period: DocumentPeriod) => monthAt(period, 0);
export const lastMonth = (period: DocumentPeriod) => monthAt(period, periodMonths(period) - 1);

/** Months from the period's start to `month` (yyyy-MM), or -1 outside the period. */
export function monthOffset(period: DocumentPeriod, month: string): number {
  const [year, number] = month.split('-').map(Number);
  if (!year || !number) return -1;
  const offset = (year - period.year) * 12 + (number - period.month);
  return offset >= 0 && offset < periodMonths(period) ? offset : -1;
}

/** How many months may follow from `start` (yyyy-MM) inside the period; 0 outside it. */
export function monthsLeft(period: DocumentPeriod, start: string): number {
  const offset = monthOffset(period, start);
  return offset < 0 ? 0 : periodMonths(period) - offset;
}

/** A column period from the picker: its start inside the document period and its duration clamped to the rest. */
export function pickedPeriod(period: DocumentPeriod, start: string, duration: number): { start: string; duration: number } | null {
  const left = monthsLeft(period, start);
  if (left === 0 || !Number.isInteger(duration) || duration < 1) return null;
  return { start: `${start}-01`, duration: Math.min(duration, left) };
}

/** The months a column period covers, first and last (yyyy-MM). */
export function periodRange(period: { start: string; duration: number }): [string, string] {
  const [year, month] = period.start.split('-').map(Number) as [number, number];
  const first = { year, month, duration: 1 };
  return [monthAt(first, 0), monthAt(first, period.duration - 1)];
}
