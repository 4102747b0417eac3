import type { Selectable } from 'kysely';
import type { ReadDatabase } from '../read-models';
import type { OrganizationsTable } from './tables';

/** A row of the organisations read model, as queries return it (the one definition: tables.ts). */
export type OrganizationRow = Selectable<OrganizationsTable>;

/** The administration area's organisation list, by name. */
export function listOrganizations(read: ReadDatabase): Promise<OrganizationRow[]> {
  return read.selectFrom('organizations').selectAll().orderBy('name').execute();
}

/** One organisation, or undefined when there is no such (live) organisation. */
export function findOrganization(read: ReadDatabase, organizationId: string): Promise<OrganizationRow | undefined> {
  return read.selectFrom('organizations').selectAll().where('id', '=', organizationId).executeTakeFirst();
}
