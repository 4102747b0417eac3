import { describe, expect, it } from 'vitest';
import { amountFormatOf, formatDate, formatFixedAmount } from './format';

describe('formatDate', () => {
  it('formats with the organisation date patterns in local time', () => {
    const date = new Date(2025, 2, 7, 9, 5);
    expect(formatDate(date)).toBe('07.03.2025');
    expect(formatDate(date, 'yyyy-MM-dd')).toBe('2025-03-07');
    expect(formatDate(date, 'dd.MM.yyyy HH:mm')).toBe('07.03.2025 09:05');
    expect(formatDate(date, 'MM.yyyy')).toBe('03.2025');
  });

  it('shows nothing for missing or invalid values', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});

describe('amount formats', () => {
  it('reads the organisation settings and falls back to two places and a comma', () => {
    expect(amountFormatOf({ decimalPlaces: '0', decimalSeparator: 'dot' })).toEqual({ decimalPlaces: 0, decimalSeparator: '.' });
    expect(amountFormatOf({ decimalPlaces: '9', decimalSeparator: 'comma' })).toEqual({ decimalPlaces: 2, decimalSeparator: ',' });
    expect(amountFormatOf(null)).toEqual({ decimalPlaces: 2, decimalSeparator: ',' });
  });

  it('groups thousands with a no-break space and uses the separator', () => {
    expect(formatFixedAmount('-1234567.50', ',')).toBe('-1\u00a0234\u00a0567,50');
    expect(formatFixedAmount('999', '.')).toBe('999');
    expect(formatFixedAmount('1000.125', '.')).toBe('1\u00a0000.125');
  });
});
