import { describe, expect, it } from 'vitest';
import { formatDate } from './format';

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
