import { describe, expect, it } from 'vitest';
import { rememberCreatedBudget, takeCreatedBudgets } from './recently-created';

describe('recently created budgets', () => {
  it('returns a remembered budget once, when a list shows it', () => {
    rememberCreatedBudget('a');
    rememberCreatedBudget('b');
    expect(takeCreatedBudgets(['x', 'y'])).toEqual([]);
    expect(takeCreatedBudgets(['x', 'a'])).toEqual(['a']);
    expect(takeCreatedBudgets(['a', 'b'])).toEqual(['b']);
    expect(takeCreatedBudgets(['a', 'b'])).toEqual([]);
  });
});
