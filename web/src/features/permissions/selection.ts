import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { budgetSubBudgetsQuery } from './api';
import type { NamedItem } from './tree';

/**
 * The id chosen in the query string when it names one of `ids`, otherwise the first (spec 1,
 * section 2: missing or invalid selections default to the first). `undefined` while the list
 * loads, `null` when it is empty.
 */
export function pickValid(requested: string | null, ids: readonly string[] | undefined): string | null | undefined {
  if (!ids) return undefined;
  if (requested && ids.includes(requested)) return requested;
  return ids[0] ?? null;
}

/**
 * Keeps the query string in step with the selections (replacing the history entry): a resolved id
 * is written, `null` removes the parameter, `undefined` (still loading) leaves it alone.
 */
export function useQueryStringSelections(selections: Record<string, string | null | undefined>): void {
  const [params, setParams] = useSearchParams();
  const wanted = JSON.stringify(selections);
  useEffect(() => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(JSON.parse(wanted) as Record<string, string | null | undefined>)) {
      if (value === undefined) continue;
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    if (next.toString() !== params.toString()) setParams(next, { replace: true });
  }, [wanted, params, setParams]);
}

/** The sub-budgets of the open budgets in a scheme, by budget (undefined while loading). */
export function useOpenSubBudgets(openBudgetIds: ReadonlySet<string>, schemeId: string | null | undefined): Map<string, NamedItem[] | undefined> {
  const budgetIds = schemeId ? [...openBudgetIds] : [];
  const results = useQueries({ queries: budgetIds.map((budgetId) => budgetSubBudgetsQuery(budgetId, schemeId ?? '')) });
  // One key for "which budgets, and when each list last arrived": the map is made again only then.
  const key = `${schemeId}|${budgetIds.join(',')}|${results.map((result) => result.dataUpdatedAt).join(',')}`;
  const latest = { budgetIds, results };
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for budgetIds and results.
  return useMemo(() => new Map(latest.budgetIds.map((budgetId, index) => [budgetId, latest.results[index]?.data])), [key]);
}
