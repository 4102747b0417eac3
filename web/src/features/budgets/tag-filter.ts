/** The budgets carrying any of `tags` (spec 2, Budget list table: any-of match); all of them for no tags. */
export function filterByTags<T extends { tags: readonly string[] }>(budgets: readonly T[], tags: readonly string[]): T[] {
  if (tags.length === 0) return budgets as T[];
  const wanted = new Set(tags);
  return budgets.filter((budget) => budget.tags.some((tag) => wanted.has(tag)));
}
