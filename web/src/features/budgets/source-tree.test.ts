import { describe, expect, it } from 'vitest';
import type { BudgetView } from './api/queries';
import { sourceTreeGroups, visibleTreeItems } from './source-tree';

const documents = [
  { id: 'd1', name: 'Eelarve 2026' },
  { id: 'd2', name: 'Eelarve 2027' },
  { id: 'd3', name: 'Tühi' },
];
const budget = (id: string, documentId: string, name: string) => ({ id, documentId, name, type: 'COMMON' }) as BudgetView;
const budgets = [budget('b1', 'd1', 'Põhitegevus'), budget('b2', 'd1', 'Seire'), budget('b3', 'd2', 'Põhitegevus 2027')];

describe('copy source tree', () => {
  it('lists the documents holding candidates, in their order, without the empty ones', () => {
    const groups = sourceTreeGroups(documents, budgets, '');
    expect(groups.map((group) => [group.document.id, group.budgets.map((candidate) => candidate.id)])).toEqual([
      ['d1', ['b1', 'b2']],
      ['d2', ['b3']],
    ]);
  });

  it('narrows the budgets by name, ignoring case, and keeps their documents', () => {
    expect(sourceTreeGroups(documents, budgets, '  PÕHI ').map((group) => group.budgets.map((candidate) => candidate.id))).toEqual([['b1'], ['b3']]);
    expect(sourceTreeGroups(documents, budgets, 'seire').map((group) => group.document.id)).toEqual(['d1']);
    expect(sourceTreeGroups(documents, budgets, 'puudub')).toEqual([]);
  });

  it('shows the budgets of expanded documents only', () => {
    const groups = sourceTreeGroups(documents, budgets, '');
    expect(visibleTreeItems(groups, (id) => id === 'd2').map((item) => item.key)).toEqual(['d:d1', 'd:d2', 'b:b3']);
    expect(visibleTreeItems(groups, () => true).map((item) => item.key)).toEqual(['d:d1', 'b:b1', 'b:b2', 'd:d2', 'b:b3']);
  });
});
