import { describe, expect, it } from 'vitest';
import { budgetTabs } from './BudgetLayout';

const disabledTabs = (permissions: Parameters<typeof budgetTabs>[1]['permissions'], type: 'COMMON' | 'SUM_BUDGET' = 'COMMON') =>
  budgetTabs('d1', { id: 'b1', type, permissions })
    .filter((tab) => tab.disabled)
    .map((tab) => tab.testId);

describe("a budget's tabs", () => {
  it('are all open to who may read and update it, sub-budgets only for common budgets', () => {
    expect(disabledTabs({ read: true, update: true, restrictions: [] })).toEqual([]);
    expect(disabledTabs({ read: true, update: true, restrictions: [] }, 'SUM_BUDGET')).toEqual(['budget-tab-sub-budgets']);
    expect(disabledTabs({ read: true, update: false, restrictions: [] })).toEqual(['budget-tab-settings']);
  });

  it('keep the settings open under a lock (the form is read-only there), and are all disabled where a status disables reading', () => {
    expect(disabledTabs({ read: true, update: true, restrictions: ['RESOURCE_WRITE_DISABLED', 'METADATA_WRITE_DISABLED'] })).toEqual([]);
    expect(disabledTabs({ read: true, update: true, restrictions: ['READ_DISABLED'] })).toEqual([
      'budget-tab-report',
      'budget-tab-sub-budgets',
      'budget-tab-settings',
    ]);
  });
});
