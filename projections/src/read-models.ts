import type { Kysely } from 'kysely';
import type { AccountsReadModel } from './accounts/tables';
import type { ApprovalRoutesReadModel } from './budget-approval/route-tables';
import type { BudgetApprovalReadModel } from './budget-approval/tables';
import type { BudgetsReadModel } from './budgets/tables';
import type { ClassifiersReadModel } from './classifiers/tables';
import type { DocumentsReadModel } from './documents/tables';
import type { OrganizationsReadModel } from './organizations/tables';
import type { PermissionsReadModel } from './permissions/tables';
import type { RecordsReadModel } from './records/tables';
import type { ResourceStatusesReadModel } from './resource-statuses/tables';
import type { SchemesReadModel } from './schemes/tables';
import type { StoredSettingsReadModel } from './stored-settings/tables';

/** Every read-model table as queries see it through the `read` schema's views. */
export type ReadModels = OrganizationsReadModel &
  AccountsReadModel &
  DocumentsReadModel &
  BudgetsReadModel &
  SchemesReadModel &
  ClassifiersReadModel &
  PermissionsReadModel &
  ResourceStatusesReadModel &
  BudgetApprovalReadModel &
  ApprovalRoutesReadModel &
  RecordsReadModel &
  StoredSettingsReadModel;

/**
 * The read side's handle: queries (projections/src/<feature>/queries.ts) take this, never the
 * gateway; the `read` views always point at each projector's active generation.
 */
export type ReadDatabase = Kysely<ReadModels>;

export function readModels(db: Kysely<unknown> | Kysely<never>): ReadDatabase {
  return (db as Kysely<unknown>).withSchema('read') as unknown as ReadDatabase;
}
