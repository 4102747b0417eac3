/** The pure parts of the shared multi-select (MultiSelect.tsx). */

export interface MultiSelectOption {
  value: string;
  label: string;
}

/** Spec 2, section 9: a filter dropdown gets a search box from 11 options on. */
export const SEARCH_FROM_OPTIONS = 11;

/** The options whose label contains `search` (case-insensitive); all of them for an empty search. */
export function matchingOptions<T extends MultiSelectOption>(options: readonly T[], search: string, locale: string): T[] {
  const needle = search.trim().toLocaleLowerCase(locale);
  return needle ? options.filter((option) => option.label.toLocaleLowerCase(locale).includes(needle)) : [...options];
}

/** The chosen options shown on the closed control and how many more are chosen ("+n"). */
export function visibleChoices<T>(chosen: readonly T[], max: number): { shown: T[]; more: number } {
  const shown = chosen.slice(0, Math.max(0, max));
  return { shown, more: chosen.length - shown.length };
}
