import type { FittingSubBudget } from '@eelarve/projections/records/api-queries';
import { UNFIT_SUB_BUDGET } from './access';

/**
 * Which sub-budget of a scheme a record falls in (issue 11, "How records relate to sub-budgets";
 * the same rule as the domain's `recordFitsSubBudget`): the one whose value it carries on every
 * classifier of the scheme, empty where the sub-budget leaves one empty; '-2' when none. Values
 * are unique within a scheme, so at most one fits: a record is looked up once by its values on
 * the scheme's classifiers, never compared with each of up to 10,000 sub-budgets.
 */
export type SchemeFitter = (classifiers: Readonly<Record<string, string>>) => string;

const keyOf = (classifierIds: readonly string[], values: Readonly<Record<string, string>>) => JSON.stringify(classifierIds.map((id) => values[id] ?? null));

export function schemeFitter(classifierIds: readonly string[], subBudgets: readonly FittingSubBudget[]): SchemeFitter {
  const byValues = new Map<string, string>();
  for (const subBudget of subBudgets) {
    const key = keyOf(classifierIds, subBudget.classifiers);
    if (!byValues.has(key)) byValues.set(key, subBudget.id);
  }
  return (classifiers) => byValues.get(keyOf(classifierIds, classifiers)) ?? UNFIT_SUB_BUDGET;
}

/** The classifier ids of a scheme (its classifier list, in order). */
export const schemeClassifierIds = (scheme: { classifier_list: readonly { classifierId: string }[] }) =>
  scheme.classifier_list.map((entry) => entry.classifierId);
