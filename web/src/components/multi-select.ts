/** The pure parts of the shared multi-select (MultiSelect.tsx). */

export interface MultiSelectOption {
  value: string;
  label: string;
  /** Shown after the label in the list (a badge text, for instance). */
  hint?: string;
}

/** Spec 1 and spec 2, section 9: a multi-select gets a search box from 11 options on. */
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

/** `value` with `optionValue` checked or unchecked, in the options' order so that equal selections compare equal. */
export function toggleValue(options: readonly MultiSelectOption[], value: readonly string[], optionValue: string, checked: boolean): string[] {
  const rest = value.filter((item) => item !== optionValue);
  const next = checked ? [...rest, optionValue] : rest;
  const order = new Map(options.map((option, index) => [option.value, index]));
  return next.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
}

export interface PopupPosition {
  top: number;
  left: number;
  width: number;
  maxHeight: number;
}

/**
 * Where the popup of a trigger at `rect` goes in a `viewport`: below it when there is room (or more
 * room than above), otherwise above; at least `minWidth` wide, 200 to 380 px high, kept 8 px inside
 * the viewport's sides.
 */
export function popupPosition(
  rect: { top: number; bottom: number; left: number; width: number },
  viewport: { width: number; height: number },
  minWidth = 300,
): PopupPosition {
  const width = Math.max(rect.width, minWidth);
  const below = viewport.height - rect.bottom - 16;
  const above = rect.top - 16;
  const maxHeight = Math.max(200, Math.min(380, Math.max(below, above)));
  const top = below >= Math.min(maxHeight, 260) || below >= above ? rect.bottom + 4 : Math.max(8, rect.top - 4 - maxHeight);
  return { top, left: Math.max(8, Math.min(rect.left, viewport.width - width - 8)), width, maxHeight };
}
