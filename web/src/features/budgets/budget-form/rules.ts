import type { BudgetTypeValue } from '@eelarve/shared';
import { type FieldErrors, messageOf } from '../../../components/form';

/** The form's own rules beyond the schema: a sum budget needs components, a copy needs its source. */
export function formRules(type: BudgetTypeValue, components: readonly string[], copyWithoutSource: boolean): FieldErrors {
  const errors: FieldErrors = {};
  if (type === 'SUM_BUDGET' && components.length === 0) errors.sumBudgetComponentIds = messageOf('validation.required');
  if (copyWithoutSource) errors.copy = messageOf('validation.required');
  return errors;
}
