import { DEFAULT_RESOURCE_STATUSES, type DefaultResourceStatus } from '@eelarve/shared';
import { type Selectable, sql } from 'kysely';
import type { ReadDatabase } from '../read-models';
import type { ResourceStatusesTable } from './tables';

/** A status as its organisation has it (the one definition: tables.ts). */
export type ResourceStatusRow = Selectable<ResourceStatusesTable>;

const untouchedDefault = (organizationId: string, status: DefaultResourceStatus): ResourceStatusRow => ({
  organization_id: organizationId,
  id: status.id,
  read_only: true,
  name: status.name,
  description: status.description,
  icon: status.icon,
  rules: status.rules,
  created_at: null,
});

/** The organisation's statuses: the default statuses first (as it has edited them), then its own in the order made. */
export async function organizationResourceStatuses(read: ReadDatabase, organizationId: string): Promise<ResourceStatusRow[]> {
  const rows = await read
    .selectFrom('resource_statuses')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const edited = new Map(rows.filter((row) => row.read_only).map((row) => [row.id, row]));
  const defaults = DEFAULT_RESOURCE_STATUSES.map((status) => edited.get(status.id) ?? untouchedDefault(organizationId, status));
  return [...defaults, ...rows.filter((row) => !row.read_only)];
}

/** One status of the organisation, or undefined when it has no such status. */
export async function findResourceStatus(read: ReadDatabase, organizationId: string, statusId: string): Promise<ResourceStatusRow | undefined> {
  const row = await read
    .selectFrom('resource_statuses')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', statusId)
    .executeTakeFirst();
  if (row) return row;
  const byDefault = DEFAULT_RESOURCE_STATUSES.find((status) => status.id === statusId);
  return byDefault && untouchedDefault(organizationId, byDefault);
}

/** Ids of the organisation's statuses with a rule that overrides the role. */
export async function statusesOverridingRole(read: ReadDatabase, organizationId: string, roleId: string): Promise<string[]> {
  const rows = await read
    .selectFrom('resource_statuses')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where(sql<boolean>`rules @> ${JSON.stringify([{ overrideRoles: [roleId] }])}::jsonb`)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

/** How many live documents and budgets of the organisation carry the status. */
export async function resourcesWithStatus(read: ReadDatabase, organizationId: string, statusId: string): Promise<number> {
  const [documents, budgets] = await Promise.all([
    read
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('organization_id', '=', organizationId)
      .where('resource_status_id', '=', statusId)
      .executeTakeFirstOrThrow(),
    read
      .selectFrom('budgets')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('organization_id', '=', organizationId)
      .where('resource_status_id', '=', statusId)
      .executeTakeFirstOrThrow(),
  ]);
  return Number(documents.count) + Number(budgets.count);
}
