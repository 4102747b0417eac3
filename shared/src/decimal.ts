import Decimal from 'decimal.js';
import { z } from 'zod';

/**
 * Amounts are exact decimals end to end (issue 11): on the wire a canonical decimal string
 * ("-1234.5"), in PostgreSQL `numeric`, in TypeScript decimal.js. A JS number never carries an
 * amount past the edge: a number in a request body is accepted only when its shortest text is
 * exact (at most 15 significant digits), and becomes that text.
 */
export const AMOUNT_LIMITS = {
  /** Digits before the point: amounts below 10^15 (a thousand trillion). */
  integerDigits: 15,
  /** Digits after the point that are kept; more are refused, never rounded silently. */
  fractionDigits: 6,
} as const;

/** The PostgreSQL type every amount column uses. */
export const AMOUNT_SQL_TYPE = `numeric(${AMOUNT_LIMITS.integerDigits + AMOUNT_LIMITS.fractionDigits}, ${AMOUNT_LIMITS.fractionDigits})`;

const CANONICAL = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;
const PLAIN_DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

const Exact = Decimal.clone({ precision: 64, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -64, toExpPos: 64 });

/** The canonical text of a decimal: no exponent, no trailing zeros after the point, "0" for zero. */
function canonical(value: Decimal.Instance): string {
  const text = value.toFixed();
  return text === '-0' ? '0' : text;
}

function withinLimits(value: Decimal.Instance): boolean {
  return value.abs().lt(new Exact(10).pow(AMOUNT_LIMITS.integerDigits)) && value.decimalPlaces() <= AMOUNT_LIMITS.fractionDigits;
}

/** A plain decimal text ("12", "-0.50", ".5") within the limits → its canonical text; otherwise null. */
export function canonicalAmount(text: string): string | null {
  const trimmed = text.trim();
  if (!PLAIN_DECIMAL.test(trimmed)) return null;
  const value = new Exact(trimmed);
  return withinLimits(value) ? canonical(value) : null;
}

/** A JSON number becomes an amount only if its shortest text is exact (≤ 15 significant digits). */
export function amountFromNumber(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  const text = String(value);
  if (/e/i.test(text)) return null;
  if (text.replace(/^-/, '').replace('.', '').replace(/^0+/, '').length > 15) return null;
  return canonicalAmount(text);
}

/**
 * What a person types: a space (or a no-break space) as thousands separator and the
 * organisation's decimal separator ("1 234,56" with a comma). Null when it is not a number.
 */
export function parseTypedAmount(text: string, decimalSeparator: ',' | '.' = ','): string | null {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '');
  if (compact === '') return null;
  const other = decimalSeparator === ',' ? '.' : ',';
  if (compact.includes(other) && decimalSeparator === ',') {
    // "1234.56" typed where a comma is the separator is still plainly a decimal point.
    if (compact.includes(',')) return null;
    return canonicalAmount(compact);
  }
  if (compact.includes(other)) return null;
  return canonicalAmount(decimalSeparator === ',' ? compact.replace(',', '.') : compact);
}

export function isCanonicalAmount(text: string): boolean {
  return CANONICAL.test(text) && canonicalAmount(text) === text;
}

/** Exact sum of amounts (canonical text in, canonical text out). */
export function sumAmounts(values: readonly string[]): string {
  let total = new Exact(0);
  for (const value of values) total = total.plus(value);
  return canonical(total);
}

export function amountsEqual(a: string, b: string): boolean {
  return new Exact(a).eq(b);
}

export function compareAmounts(a: string, b: string): number {
  return new Exact(a).cmp(b);
}

/** An amount at a number of decimal places (half away from zero, as a spreadsheet shows it). */
export function roundAmount(value: string, decimalPlaces: number): string {
  return new Exact(value).toFixed(decimalPlaces, Decimal.ROUND_HALF_UP);
}

/**
 * An amount in a request body: a decimal string, or a JSON number that is exact. Refused with
 * `validation.amount` (not a number, over 15 integer digits, or more than 6 decimals).
 */
export const amountSchema = z.union([z.string(), z.number()]).transform((value, context) => {
  const amount = typeof value === 'number' ? amountFromNumber(value) : canonicalAmount(value);
  if (amount === null) {
    context.addIssue({ code: 'custom', message: 'validation.amount' });
    return z.NEVER;
  }
  return amount;
});
