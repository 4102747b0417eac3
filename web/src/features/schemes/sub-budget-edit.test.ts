import type { SubBudget } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api';
import { canSave } from '../../grid/inline-edit';
import type { SchemeColumn } from './model';
import { COMBINATION_FIELD, draftOf, parseSubBudgetDraft, rowFromSubBudget, serverInvalid, SubBudgetEditStore } from './sub-budget-edit';

const columns: SchemeColumn[] = [
  { classifierId: 'c-main', type: 'MAIN', fieldName: 'tegevusala', name: 'Tegevusala' },
  { classifierId: 'c-second', type: 'SECONDARY', fieldName: 'allikas', name: 'Allikas' },
];
const subBudget = { id: 's1', name: 'Sport', classifiers: { 'c-main': '04' }, hasRecords: false } as unknown as SubBudget;

describe('sub-budgets: inline editing', () => {
  it('drafts a row (a duplicate under the copy’s name) and saves only a changed one', () => {
    const row = rowFromSubBudget(subBudget, columns);
    expect(row).toMatchObject({ key: 's1', id: 's1', classifiers: { 'c-main': '04', 'c-second': '' } });
    const store = new SubBudgetEditStore();
    store.start('new-1', 'duplicating', draftOf(row, columns, 'Sport (koopia)'));
    expect(store.current?.draft).toEqual({ name: 'Sport (koopia)', 'c-main': '04', 'c-second': '' });
    expect(canSave(store.current)).toBe(false);
    store.update({ 'c-second': 'A', [COMBINATION_FIELD]: undefined });
    expect(canSave(store.current)).toBe(true);
    store.update({ 'c-second': '' });
    expect(canSave(store.current)).toBe(false);
  });

  it('needs a name and the main classifiers; sends the chosen values only', () => {
    const refused = parseSubBudgetDraft({ name: ' ', 'c-main': '', 'c-second': 'A' }, columns);
    expect(refused.success).toBe(false);
    if (!refused.success)
      expect(refused.error.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
        ['name', 'validation.required'],
        ['c-main', 'validation.required'],
      ]);
    expect(parseSubBudgetDraft({ name: ' Sport ', 'c-main': '04', 'c-second': '' }, columns)).toEqual({
      success: true,
      data: { name: 'Sport', classifiers: { 'c-main': '04' } },
    });
  });

  it('puts a server refusal on the combination or on the classifier it names', () => {
    expect(serverInvalid(new ApiError(409, 'SUB_BUDGET_NOT_UNIQUE'), columns)).toEqual({ [COMBINATION_FIELD]: 'SUB_BUDGET_NOT_UNIQUE' });
    const missing = new ApiError(422, 'MAIN_CLASSIFIER_NOT_SELECTED', undefined, [{ path: 'body.classifiers.c-main', message: 'mainClassifierNotSelected' }]);
    expect(serverInvalid(missing, columns)).toEqual({ 'c-main': 'MAIN_CLASSIFIER_NOT_SELECTED' });
    expect(serverInvalid(new ApiError(500, 'INTERNAL_ERROR'), columns)).toEqual({});
  });
});
