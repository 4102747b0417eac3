import { describe, expect, it } from 'vitest';
import { amountFromNumber, amountSchema, canonicalAmount, parseTypedAmount, roundAmount, sumAmounts } from './decimal';

describe('amounts are exact decimals', () => {
  it('keeps a canonical text and refuses what is not a plain decimal within the limits', () => {
    expect(canonicalAmount('0012.500')).toBe('12.5');
    expect(canonicalAmount('-0.00')).toBe('0');
    expect(canonicalAmount('.5')).toBe('0.5');
    expect(canonicalAmount('999999999999999.999999')).toBe('999999999999999.999999');
    expect(canonicalAmount('1000000000000000')).toBeNull();
    expect(canonicalAmount('1.0000001')).toBeNull();
    expect(canonicalAmount('1e3')).toBeNull();
    expect(canonicalAmount('NaN')).toBeNull();
    expect(canonicalAmount('')).toBeNull();
  });

  it('adds without binary floating point drift', () => {
    expect(sumAmounts(Array.from({ length: 10 }, () => '0.1'))).toBe('1');
    expect(sumAmounts(['999999999999999.99', '0.01'])).toBe('1000000000000000');
    expect(sumAmounts([])).toBe('0');
  });

  it('takes a JSON number only when its text is exact', () => {
    expect(amountFromNumber(0.1)).toBe('0.1');
    expect(amountFromNumber(1234.56)).toBe('1234.56');
    expect(amountFromNumber(2 ** 53 + 2)).toBeNull();
    expect(amountFromNumber(1e-7)).toBeNull();
    expect(amountSchema.safeParse(12.3).data).toBe('12.3');
    expect(amountSchema.safeParse('abc').error?.issues[0]?.message).toBe('validation.amount');
  });

  it('reads what a person types: spaces as thousands separators and the organisation’s decimal separator', () => {
    expect(parseTypedAmount('1 234 567,89', ',')).toBe('1234567.89');
    expect(parseTypedAmount('1\u00a0234.5', '.')).toBe('1234.5');
    expect(parseTypedAmount('1234.5', ',')).toBe('1234.5');
    expect(parseTypedAmount('1,5', '.')).toBeNull();
    expect(parseTypedAmount('  ', ',')).toBeNull();
  });

  it('rounds half away from zero for display', () => {
    expect(roundAmount('2.345', 2)).toBe('2.35');
    expect(roundAmount('-2.345', 2)).toBe('-2.35');
  });
});
