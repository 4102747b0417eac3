/**
 * Budgets created in this tab that the budget list has not shown yet: the list highlights their
 * rows once (spec 2, Budget list table: a new row is highlighted about 6 seconds) and forgets them.
 */
const created = new Set<string>();

/** After a budget was created: its row is highlighted when the list next shows it. */
export function rememberCreatedBudget(budgetId: string): void {
  created.add(budgetId);
}

/** The remembered budgets among `shownIds`, forgotten as they are returned. */
export function takeCreatedBudgets(shownIds: readonly string[]): string[] {
  const taken = shownIds.filter((id) => created.has(id));
  for (const id of taken) created.delete(id);
  return taken;
}
