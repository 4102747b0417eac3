import type { ResourceStatusRuleType } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { budgetLockReason, canDeleteBudget, canEditBudget, canOpenBudget, canTagBudget } from './budget-access';

const permissions = (read: boolean, update: boolean, restrictions: ResourceStatusRuleType[] = []) => ({ read, update, restrictions });

describe('what the budget list offers for a budget', () => {
  it('follows the grants where no status restricts', () => {
    const updater = permissions(true, true);
    expect([canOpenBudget(updater), canTagBudget(updater), canEditBudget(updater), canDeleteBudget(updater)]).toEqual([true, true, true, true]);
    const reader = permissions(true, false);
    expect([canOpenBudget(reader), canTagBudget(reader), canEditBudget(reader), canDeleteBudget(reader)]).toEqual([true, false, false, false]);
    expect(budgetLockReason(reader)).toBe('budgets.notEditable');
    expect(canOpenBudget(permissions(false, false))).toBe(false);
  });

  it('shows the name as plain text and refuses deletion under READ_DISABLED', () => {
    const hidden = permissions(true, true, ['READ_DISABLED']);
    expect(canOpenBudget(hidden)).toBe(false);
    expect(canDeleteBudget(hidden)).toBe(false);
    expect(budgetLockReason(hidden)).toBe('error.ACTION_DISALLOWED_DUE_TO_STATUS');
  });

  it('locks data and settings apart: RESOURCE_WRITE_DISABLED refuses deletion, METADATA_WRITE_DISABLED the tags; the form stays for the status', () => {
    const dataLocked = permissions(true, true, ['RESOURCE_WRITE_DISABLED']);
    expect([canOpenBudget(dataLocked), canTagBudget(dataLocked), canEditBudget(dataLocked), canDeleteBudget(dataLocked)]).toEqual([true, true, true, false]);
    const settingsLocked = permissions(true, true, ['METADATA_WRITE_DISABLED']);
    expect([canTagBudget(settingsLocked), canEditBudget(settingsLocked), canDeleteBudget(settingsLocked)]).toEqual([false, true, true]);
  });
});
