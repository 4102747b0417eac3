import { MONTHS_PER_YEAR, sumAmounts } from '@eelarve/shared';

/**
 * The document period as the records table shows it (spec 3, Records screen): one column per
 * calendar quarter and year the period touches, and the total. A period that does not start in
 * January touches one calendar year more than its duration.
 */
export interface DocumentPeriod {
  year: number;
  /** 1-12. */
  month: number;
  /** Years. */
  duration: number;
}

export interface PeriodMonth {
  /** Index into a record's `factors.months`. */
  index: number;
  year: number;
  /** 1-12. */
  month: number;
}

export interface PeriodQuarter {
  key: string;
  year: number;
  quarter: number;
  /** Indexes of the period's months in this quarter. */
  months: number[];
}

export interface PeriodYear {
  key: string;
  year: number;
  quarters: PeriodQuarter[];
  months: number[];
}

/** The months of the period, in order: 12 per year of its duration. */
export function periodMonths(period: DocumentPeriod): PeriodMonth[] {
  const count = period.duration * MONTHS_PER_YEAR;
  return Array.from({ length: count }, (_, index) => {
    const offset = period.month - 1 + index;
    return { index, year: period.year + Math.floor(offset / MONTHS_PER_YEAR), month: (offset % MONTHS_PER_YEAR) + 1 };
  });
}

/** The calendar years of the period with their quarters (only the months inside the period). */
export function periodYears(period: DocumentPeriod): PeriodYear[] {
  const years: PeriodYear[] = [];
  for (const month of periodMonths(period)) {
    let year = years.at(-1);
    if (year?.year !== month.year) {
      year = { key: `y${month.year}`, year: month.year, quarters: [], months: [] };
      years.push(year);
    }
    const quarterNumber = Math.floor((month.month - 1) / 3) + 1;
    let quarter = year.quarters.at(-1);
    if (quarter?.quarter !== quarterNumber) {
      quarter = { key: `y${month.year}q${quarterNumber}`, year: month.year, quarter: quarterNumber, months: [] };
      year.quarters.push(quarter);
    }
    quarter.months.push(month.index);
    year.months.push(month.index);
  }
  return years;
}

/** Sums of a monthly split per year and quarter key (`y2025`, `y2025q3`); empty without a split. */
export function periodSums(months: readonly string[] | null, years: readonly PeriodYear[]): Record<string, string> {
  if (!months) return {};
  const sums: Record<string, string> = {};
  const sumOf = (indexes: readonly number[]) => sumAmounts(indexes.map((index) => months[index] ?? '0'));
  for (const year of years) {
    sums[year.key] = sumOf(year.months);
    for (const quarter of year.quarters) sums[quarter.key] = sumOf(quarter.months);
  }
  return sums;
}
