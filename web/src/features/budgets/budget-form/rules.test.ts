import { describe, expect, it } from 'vitest';
import { formRules } from './rules';

describe('budget form rules', () => {
  it('asks a sum budget for its components', () => {
    expect(formRules('SUM_BUDGET', [], false)).toEqual({ sumBudgetComponentIds: { message: 'validation.required' } });
    expect(formRules('SUM_BUDGET', ['b1'], false)).toEqual({});
    expect(formRules('COMMON', [], false)).toEqual({});
  });

  it('asks a copy for its source budget', () => {
    expect(formRules('MONITORING', [], true)).toEqual({ copy: { message: 'validation.required' } });
  });
});
