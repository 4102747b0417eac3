import { describe, expect, it } from 'vitest';
import { filterTree, flattenTree, rowIdOf, type TreeInput } from './tree';

const input = (over: Partial<TreeInput> = {}): TreeInput => ({
  organizationName: 'Linn',
  documents: [
    { id: 'd1', name: 'Eelarve 2027' },
    { id: 'd2', name: 'Eelarve 2028' },
  ],
  documentId: 'd1',
  budgets: [
    { id: 'b1', name: 'Kultuur', holdsSubBudgets: true },
    { id: 'b2', name: 'Kokku', holdsSubBudgets: false },
  ],
  subBudgets: new Map([['b1', [{ id: 's1', name: 'Muuseum' }]]]),
  openBudgetIds: new Set(['b1']),
  schemeChosen: true,
  ...over,
});

const shape = (rows: ReturnType<typeof flattenTree>) => rows.map((row) => `${'  '.repeat(row.depth)}${row.name}`);

describe('flattenTree', () => {
  it('lists organisation, documents, the chosen document’s budgets and an open budget’s sub-budgets', () => {
    const rows = flattenTree(input());
    expect(shape(rows)).toEqual(['Linn', '  Eelarve 2027', '    Kultuur', '      Muuseum', '    Kokku', '  Eelarve 2028']);
    expect(rows.map((row) => row.id)).toEqual(['organization', 'document:d1', 'budget:b1', 'sub-budget:b1:s1', 'budget:b2', 'document:d2']);
    expect(rows[3]?.resource).toEqual({ documentId: 'd1', budgetId: 'b1', subBudgetId: 's1' });
    expect(rows.find((row) => row.id === 'budget:b2')?.expandable).toBe(false);
    expect(rows.every((row) => row.depth <= 3)).toBe(true);
  });

  it('shows a closed budget without children, and one still loading', () => {
    expect(shape(flattenTree(input({ openBudgetIds: new Set() })))).not.toContain('      Muuseum');
    const loading = flattenTree(input({ subBudgets: new Map() })).find((row) => row.id === 'budget:b1');
    expect(loading).toMatchObject({ expanded: true, loading: true });
  });

  it('does not open budgets without a scheme', () => {
    const rows = flattenTree(input({ schemeChosen: false }));
    expect(rows.find((row) => row.id === 'budget:b1')).toMatchObject({ expandable: false, expanded: false });
    expect(rows.some((row) => row.kind === 'subBudget')).toBe(false);
  });

  it('names rows by resource', () => {
    expect(rowIdOf({ documentId: 'd', budgetId: 'b', subBudgetId: 's' })).toBe('sub-budget:b:s');
    expect(rowIdOf({ documentId: null, budgetId: null, subBudgetId: null })).toBe('organization');
  });
});

describe('filterTree', () => {
  it('keeps the matches with their path', () => {
    const rows = filterTree(flattenTree(input()), (row) => row.name === 'Muuseum');
    expect(shape(rows)).toEqual(['Linn', '  Eelarve 2027', '    Kultuur', '      Muuseum']);
  });

  it('keeps nothing when nothing matches', () => {
    expect(filterTree(flattenTree(input()), () => false)).toEqual([]);
  });
});
