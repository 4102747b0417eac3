import type { ResourceStatusRow } from '@eelarve/projections/resource-statuses/queries';
import { matchingDefaultResourceStatus, type ResourceStatus, sameLabels } from '@eelarve/shared';

/** A read-only status whose name, description or icon differ from the default with its rules. */
function resettable(row: ResourceStatusRow): boolean {
  const byRules = row.read_only ? matchingDefaultResourceStatus(row.rules) : undefined;
  if (!byRules) return false;
  return !sameLabels(row, byRules);
}

export function toResourceStatus(row: ResourceStatusRow): ResourceStatus {
  return {
    id: row.id,
    // Default statuses belong to no organisation (spec 1, section 3).
    ...(row.read_only ? {} : { organizationId: row.organization_id }),
    name: row.name,
    description: row.description,
    icon: row.icon,
    readOnly: row.read_only,
    rules: row.rules,
    resettable: resettable(row),
  };
}
