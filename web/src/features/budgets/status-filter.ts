import type { ResourceStatus } from '@eelarve/shared';
import { resourceStatusName, statusIconGlyph } from '../../components/ResourceStatusSelect';

/** A status as the budget list shows it: the icon's glyph and the name in the UI language. */
export interface StatusDisplay {
  id: string;
  glyph: string;
  name: string;
}

/** The organisation's statuses (from `me`) by id, named in the UI language, else the organisation's. */
export function statusDisplays(statuses: readonly ResourceStatus[], uiLanguage: string, organizationLanguage: string | undefined): Map<string, StatusDisplay> {
  return new Map(
    statuses.map((status) => [
      status.id,
      { id: status.id, glyph: statusIconGlyph(status.icon), name: resourceStatusName(status, uiLanguage, organizationLanguage) },
    ]),
  );
}

/** The budgets whose status is any of `statusIds` (spec 2, Budget list table: select filter); all of them for none chosen. */
export function filterByStatuses<T extends { resourceStatusId: string | null }>(budgets: readonly T[], statusIds: readonly string[]): T[] {
  if (statusIds.length === 0) return budgets as T[];
  const wanted = new Set(statusIds);
  return budgets.filter((budget) => budget.resourceStatusId !== null && wanted.has(budget.resourceStatusId));
}

/** The filter's options: every status of the organisation, icon and name, in the order `me` lists them. */
export function statusFilterOptions(displays: ReadonlyMap<string, StatusDisplay>): { value: string; label: string }[] {
  return [...displays.values()].map((status) => ({ value: status.id, label: status.glyph ? `${status.glyph} ${status.name}` : status.name }));
}
