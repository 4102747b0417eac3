import { describe, expect, it } from 'vitest';
import { filterByTags } from './tag-filter';

describe('budget list tag filter', () => {
  const budgets = [
    { name: 'a', tags: ['ERP', 'IT'] },
    { name: 'b', tags: ['IT'] },
    { name: 'c', tags: [] },
  ];

  it('keeps every budget without chosen tags', () => {
    expect(filterByTags(budgets, []).map((budget) => budget.name)).toEqual(['a', 'b', 'c']);
  });

  it('keeps the budgets with any of the chosen tags', () => {
    expect(filterByTags(budgets, ['ERP']).map((budget) => budget.name)).toEqual(['a']);
    expect(filterByTags(budgets, ['ERP', 'IT']).map((budget) => budget.name)).toEqual(['a', 'b']);
    expect(filterByTags(budgets, ['none']).map((budget) => budget.name)).toEqual([]);
  });
});
