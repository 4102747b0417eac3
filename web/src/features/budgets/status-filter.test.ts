import type { ResourceStatus } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { filterByStatuses, statusDisplays, statusFilterOptions } from './status-filter';

const status = (id: string, name: { et: string; en: string }, icon: string): ResourceStatus => ({
  id,
  name,
  description: { et: '', en: '' },
  icon,
  readOnly: false,
  rules: [],
  resettable: false,
});

describe('budget list status column and filter', () => {
  const statuses = [status('s1', { et: 'Koostamisel', en: 'In preparation' }, 'edit'), status('s2', { et: 'Kinnitatud', en: '' }, 'check')];
  const budgets = [
    { name: 'a', resourceStatusId: 's1' },
    { name: 'b', resourceStatusId: 's2' },
    { name: 'c', resourceStatusId: null },
  ];

  it('names the statuses in the UI language, else the organisation language, with the icon glyph', () => {
    const displays = statusDisplays(statuses, 'en', 'et');
    expect(displays.get('s1')).toEqual({ id: 's1', glyph: '✎', name: 'In preparation' });
    expect(displays.get('s2')).toEqual({ id: 's2', glyph: '✓', name: 'Kinnitatud' });
    expect(statusFilterOptions(displays)).toEqual([
      { value: 's1', label: '✎ In preparation' },
      { value: 's2', label: '✓ Kinnitatud' },
    ]);
  });

  it('keeps every budget without chosen statuses', () => {
    expect(filterByStatuses(budgets, []).map((budget) => budget.name)).toEqual(['a', 'b', 'c']);
  });

  it('keeps the budgets with any of the chosen statuses; a budget without a status matches none', () => {
    expect(filterByStatuses(budgets, ['s2']).map((budget) => budget.name)).toEqual(['b']);
    expect(filterByStatuses(budgets, ['s1', 's2']).map((budget) => budget.name)).toEqual(['a', 'b']);
    expect(filterByStatuses(budgets, ['gone']).map((budget) => budget.name)).toEqual([]);
  });
});
