import { describe, expect, it } from 'vitest';
import { orderList } from '../../api/order';
import { periodEnd, periodLabel, periodStatus } from './period';

describe('document period', () => {
  it('ends after the duration in years', () => {
    expect(periodEnd({ year: 2026, month: 1, duration: 1 })).toEqual({ year: 2026, month: 12 });
    expect(periodEnd({ year: 2026, month: 7, duration: 2 })).toEqual({ year: 2028, month: 6 });
    expect(periodLabel({ year: 2026, month: 7, duration: 1 })).toBe('07.2026 – 06.2027');
  });

  it('tells whether the period runs now', () => {
    const now = new Date(2026, 10, 21);
    expect(periodStatus({ year: 2026, month: 1, duration: 1 }, now)).toBe('current');
    expect(periodStatus({ year: 2027, month: 1, duration: 1 }, now)).toBe('future');
    expect(periodStatus({ year: 2024, month: 1, duration: 2 }, now)).toBe('past');
  });

  it('counts order values down from the list length', () => {
    expect(orderList(['a', 'b', 'c'])).toEqual([
      { id: 'a', order: 3 },
      { id: 'b', order: 2 },
      { id: 'c', order: 1 },
    ]);
  });
});
