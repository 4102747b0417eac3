import type { ReportColumn } from '@eelarve/shared';
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { columnTitles } from './columnTitles';
import { en } from '../../i18n/messages/en';
import { et } from '../../i18n/messages/et';

const column = (key: string, change: Partial<ReportColumn> = {}): ReportColumn => ({
  key,
  kind: 'SUM',
  parentKey: null,
  budgetId: null,
  budgetName: null,
  copy: false,
  period: null,
  asOf: null,
  operation: null,
  firstOperand: null,
  secondOperand: null,
  ...change,
});

describe('report column titles', () => {
  const label = (iso: string) => `<${iso.slice(0, 16)}>`;

  it('names a comparison as of an earlier moment, in both languages, and calculations on it', () => {
    const columns = [
      column('base'),
      column('cmp1', { copy: true, asOf: '2027-03-01T10:15:00.000Z' }),
      column('cmp2', { budgetName: 'Lisaeelarve', period: { start: '2027-01-01', duration: 6 } }),
      column('calc1', { kind: 'CALCULATED', operation: 'minus', firstOperand: 'base', secondOperand: 'cmp1' }),
    ];
    for (const [locale, expected] of [
      ['et', ['Linna eelarve (koopia) seisuga <2027-03-01T10:15>', 'Linna eelarve − Linna eelarve (koopia) seisuga <2027-03-01T10:15>']],
      ['en', ['Linna eelarve (copy) as of <2027-03-01T10:15>', 'Linna eelarve − Linna eelarve (copy) as of <2027-03-01T10:15>']],
    ] as const) {
      const intl = createIntl({ locale, messages: locale === 'et' ? et : en });
      const titles = columnTitles(columns, 'Linna eelarve', intl, { label, reportAsOf: null });
      expect([titles.get('cmp1'), titles.get('calc1')]).toEqual(expected);
      expect(titles.get('cmp2')).toBe('Lisaeelarve 01.2027–06.2027');
    }
  });

  it("leaves out a moment that is the whole report's own", () => {
    const intl = createIntl({ locale: 'en', messages: en });
    const columns = [column('base', { asOf: '2027-03-01T12:15:00+02:00' }), column('cmp1', { copy: true, asOf: '2027-03-01T10:15:00.000Z' })];
    const titles = columnTitles(columns, 'Linna eelarve', intl, { label, reportAsOf: '2027-03-01T10:15:00Z' });
    expect([titles.get('base'), titles.get('cmp1')]).toEqual(['Linna eelarve', 'Linna eelarve (copy)']);
  });
});
