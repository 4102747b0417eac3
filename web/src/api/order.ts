/** Order values count down from the list's length (spec 2, section 3): documents and budgets are reordered alike. */
export function orderList(ids: readonly string[]): { id: string; order: number }[] {
  return ids.map((id, index) => ({ id, order: ids.length - index }));
}
