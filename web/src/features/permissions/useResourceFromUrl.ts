import type { GridApi } from 'ag-grid-community';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

/** Spec 1, section 2: the tree is tried every 300 ms until the resource is in it. */
export const RETRY_MS = 300;
/** After this many tries (30 s) the resource is not coming (deleted, or not in the chosen scheme): the URL is left anyway. */
export const MAX_TRIES = 100;

interface Options<T> {
  treeApi: RefObject<GridApi<T> | null>;
  /** Opens the budget so that its sub-budgets load. */
  openBudget: (budgetId: string) => void;
  select: (rowId: string) => void;
  rowIdOf: (budgetId: string, subBudgetId: string | null) => string;
}

/**
 * budgetId and subBudgetId in the URL (the sub-budget permissions button's link): the tree opens
 * the budget, then selects and scrolls to the resource as soon as its row exists, retrying every
 * 300 ms; then both leave the URL (replacing the history entry).
 */
export function useResourceFromUrl<T>({ treeApi, openBudget, select, rowIdOf }: Options<T>): void {
  const [params, setParams] = useSearchParams();
  // Read once: the parameters are removed from the URL when done.
  const [target] = useState(() => ({ budgetId: params.get('budgetId'), subBudgetId: params.get('subBudgetId') }));
  const latest = useRef({ openBudget, select, rowIdOf });
  latest.current = { openBudget, select, rowIdOf };
  // Done once: leaving the URL makes a new `setParams`, which must not select the resource again
  // after the user has chosen another.
  const done = useRef(false);

  useEffect(() => {
    const { budgetId, subBudgetId } = target;
    if (!budgetId || done.current) return;
    if (subBudgetId) latest.current.openBudget(budgetId);
    const leaveUrl = () =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('budgetId');
          next.delete('subBudgetId');
          return next;
        },
        { replace: true },
      );
    let tries = 0;
    const timer = setInterval(() => {
      tries += 1;
      const rowId = latest.current.rowIdOf(budgetId, subBudgetId);
      const node = treeApi.current?.getRowNode(rowId);
      if (node) {
        latest.current.select(rowId);
        treeApi.current?.ensureNodeVisible(node, 'middle');
      }
      if (node || tries >= MAX_TRIES) {
        clearInterval(timer);
        done.current = true;
        leaveUrl();
      }
    }, RETRY_MS);
    return () => clearInterval(timer);
  }, [target, treeApi, setParams]);
}
