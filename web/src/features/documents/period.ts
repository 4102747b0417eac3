import { DOCUMENT_LIMITS } from '@eelarve/shared';

export interface Period {
  year: number;
  month: number;
  duration: number;
}

const pad = (month: number) => String(month).padStart(2, '0');

/** The last month of a period (year and month). */
export function periodEnd(period: Period): { year: number; month: number } {
  const last = period.year * DOCUMENT_LIMITS.monthsPerYear + (period.month - 1) + period.duration * DOCUMENT_LIMITS.monthsPerYear - 1;
  return { year: Math.floor(last / DOCUMENT_LIMITS.monthsPerYear), month: (last % DOCUMENT_LIMITS.monthsPerYear) + 1 };
}

/** "01.2026 – 12.2026". */
export function periodLabel(period: Period): string {
  const end = periodEnd(period);
  return `${pad(period.month)}.${period.year} – ${pad(end.month)}.${end.year}`;
}

export type PeriodStatus = 'current' | 'future' | 'past';

/** Whether the period runs now, is still to come or is over. */
export function periodStatus(period: Period, now: Date = new Date()): PeriodStatus {
  const month = now.getFullYear() * 12 + now.getMonth();
  const start = period.year * 12 + period.month - 1;
  const end = periodEnd(period);
  const last = end.year * 12 + end.month - 1;
  if (month < start) return 'future';
  if (month > last) return 'past';
  return 'current';
}
