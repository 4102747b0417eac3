import fc from 'fast-check';
import { calculatedValue } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { exactCalculatedValue } from '../src/features/report/calculations';

/**
 * The report's calculated columns in integers (features/report/calculations.ts) answer exactly
 * what the shared decimal.js `calculatedValue` answers, for any sums and calculated values.
 */

/** A canonical decimal with up to `places` decimals and up to 21 digits, often near the edges. */
const decimal = (places: number) =>
  fc
    .tuple(fc.bigInt({ min: -(10n ** 21n) + 1n, max: 10n ** 21n - 1n }), fc.integer({ min: 0, max: places }), fc.constantFrom(1n, 3n, 7n, 10n ** 6n, 999_999n))
    .chain(([big, scale, small]) => fc.constantFrom(big, big / 10n ** 12n, small, -small, 0n, big % 1000n).map((units) => ({ units, scale })))
    .map(({ units, scale }) => {
      const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
      const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
      const trimmed = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
      return units < 0n && /[1-9]/.test(trimmed) ? `-${trimmed}` : trimmed;
    });

const operation = fc.constantFrom('percent' as const, 'minus' as const, 'plus' as const);

describe('exactCalculatedValue', () => {
  it('answers as calculatedValue for sums with up to 6 decimals', () => {
    fc.assert(
      fc.property(decimal(6), decimal(6), operation, (first, second, op) => {
        expect(exactCalculatedValue(first, second, op)).toBe(calculatedValue(first, second, op));
      }),
      { numRuns: 20_000 },
    );
  });

  it('answers as calculatedValue for operands with more decimals (which it leaves to it) and for none', () => {
    fc.assert(
      fc.property(decimal(9), decimal(9), operation, (first, second, op) => {
        expect(exactCalculatedValue(first, second, op)).toBe(calculatedValue(first, second, op));
      }),
      { numRuns: 2_000 },
    );
    expect(exactCalculatedValue(null, '1', 'percent')).toBeNull();
    expect(exactCalculatedValue('1', '0', 'percent')).toBeNull();
  });

  it('rounds a percentage half away from zero at the sixth decimal and drops what is under the tolerance', () => {
    expect(exactCalculatedValue('1', '3', 'percent')).toBe('33.333333');
    expect(exactCalculatedValue('2', '3', 'percent')).toBe('66.666667');
    expect(exactCalculatedValue('-99.9999', '96', 'percent')).toBe('-104.166563');
    expect(exactCalculatedValue('0.0016', '1.6', 'percent')).toBe('0.1');
    expect(exactCalculatedValue('0.000001', '0.16', 'percent')).toBe('0');
    expect(exactCalculatedValue('0.000001', '2', 'percent')).toBe('0');
    expect(exactCalculatedValue('-5', '2', 'percent')).toBe('-250');
    expect(exactCalculatedValue('1000000000000000', '0.000003', 'percent')).toBe('33333333333333333333333.333333');
    // Just below a tie (a sum beyond 10^38): left to calculatedValue.
    const [near, huge] = ['1000000000000000000000000000000', '200000000000000000000000000000000000000.000001'];
    expect(exactCalculatedValue(near, huge, 'percent')).toBe(calculatedValue(near, huge, 'percent'));
    expect(exactCalculatedValue('10.5', '0.0005', 'minus')).toBe('10.4995');
    expect(exactCalculatedValue('0.0005', '0.0004', 'minus')).toBe('0');
  });

  it('answers as calculatedValue at and beside the ties of a percentage, where floating point cannot decide', () => {
    // a / b × 10^8 = k + 1/2 exactly when a = (2k + 1)·c and b = 2·10^8·c (in millionths); ±1 beside it.
    const units = (value: bigint) => {
      const digits = (value < 0n ? -value : value).toString().padStart(7, '0');
      const text = `${digits.slice(0, -6)}.${digits.slice(-6)}`.replace(/\.?0+$/, '');
      return value < 0n ? `-${text}` : text;
    };
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 6n }),
        fc.constantFrom(-1n, 0n, 1n),
        fc.constantFrom(1n, -1n),
        (k, c, beside, sign) => {
          const [first, second] = [units(sign * ((2n * k + 1n) * c + beside)), units(2n * 10n ** 8n * c)];
          expect(exactCalculatedValue(first, second, 'percent')).toBe(calculatedValue(first, second, 'percent'));
        },
      ),
      { numRuns: 5_000 },
    );
  });
});
