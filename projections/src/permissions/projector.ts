import { RESOURCE_PERMISSION_EVENT_TYPES, type ResourceGrant, type ResourcePermissionEvent } from '@eelarve/domain/permissions/events';
import type { StoredEvent } from '@eelarve/eventstore';
import { type Kysely, sql } from 'kysely';
import { defineProjector } from '../projector';
import type { PermissionsReadModel, ResourcePermissionsTable } from './tables';

type Db = Kysely<PermissionsReadModel>;

interface GrantScope {
  occupationId: string;
  organizationId: string;
  documentId: string | null;
}

export const resourceKey = (documentId: string | null, budgetId: string | null, subBudgetId: string | null) =>
  `${documentId ?? ''}/${budgetId ?? ''}/${subBudgetId ?? ''}`;

function rowOf(scope: GrantScope, grant: ResourceGrant): ResourcePermissionsTable {
  return {
    occupation_id: scope.occupationId,
    resource_key: resourceKey(scope.documentId, grant.budgetId, grant.subBudgetId),
    organization_id: scope.organizationId,
    document_id: scope.documentId,
    budget_id: grant.budgetId,
    sub_budget_id: grant.subBudgetId,
    read: grant.read || grant.update,
    update: grant.update,
  };
}

async function upsert(db: Db, rows: ResourcePermissionsTable[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('resource_permissions')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['occupation_id', 'resource_key']).doUpdateSet((eb) => ({ read: eb.ref('excluded.read'), update: eb.ref('excluded.update') })),
    )
    .execute();
}

async function remove(db: Db, occupationId: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.deleteFrom('resource_permissions').where('occupation_id', '=', occupationId).where('resource_key', 'in', keys).execute();
}

/** Every grant of the occupation's stream: one document's, or the organisation grant. */
async function clearStream(db: Db, scope: GrantScope): Promise<void> {
  const query = db.deleteFrom('resource_permissions').where('occupation_id', '=', scope.occupationId);
  await (scope.documentId ? query.where('document_id', '=', scope.documentId) : query.where('document_id', 'is', null)).execute();
}

async function apply(db: Db, event: ResourcePermissionEvent): Promise<void> {
  const scope = event.data;
  const granted = event.data.grants.filter((grant) => grant.read || grant.update);
  if (event.type === 'ResourcePermissionsReplaced') await clearStream(db, scope);
  else {
    const removed = event.data.grants.filter((grant) => !grant.read && !grant.update);
    await remove(
      db,
      scope.occupationId,
      removed.map((grant) => resourceKey(scope.documentId, grant.budgetId, grant.subBudgetId)),
    );
  }
  // A bulk change over a whole document is one statement per 5,000 grants.
  for (let start = 0; start < granted.length; start += 5_000) {
    await upsert(
      db,
      granted.slice(start, start + 5_000).map((grant) => rowOf(scope, grant)),
    );
  }
}

/** Explicit resource grants per occupation; queries.ts folds them into effective permissions. */
export const permissionsProjector = defineProjector<PermissionsReadModel>({
  name: 'permissions',
  version: 3,
  eventTypes: RESOURCE_PERMISSION_EVENT_TYPES,
  tables: ['resource_permissions'],
  async migrate(db) {
    await db.schema
      .createTable('resource_permissions')
      .addColumn('occupation_id', 'uuid', (col) => col.notNull())
      .addColumn('resource_key', 'text', (col) => col.notNull())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('document_id', 'uuid')
      .addColumn('budget_id', 'uuid')
      .addColumn('sub_budget_id', 'uuid')
      .addColumn('read', 'boolean', (col) => col.notNull())
      .addColumn('update', 'boolean', (col) => col.notNull())
      .addPrimaryKeyConstraint('resource_permissions_pk', ['occupation_id', 'resource_key'])
      .execute();
    // The list filters probe one occupation's grants on a budget or above it (few rows, kept apart
    // from the many sub-budget grants), and its grant on one sub-budget.
    await db.schema
      .createIndex('resource_permissions_above_sub_budgets')
      .on('resource_permissions')
      .columns(['occupation_id', 'document_id', 'budget_id'])
      .where(sql.ref('sub_budget_id'), 'is', null)
      .execute();
    await db.schema
      .createIndex('resource_permissions_sub_budget')
      .on('resource_permissions')
      .columns(['occupation_id', 'sub_budget_id', 'budget_id'])
      .execute();
    // A budget is visible through grants on its sub-budgets: one probe per budget.
    await db.schema
      .createIndex('resource_permissions_below_budget')
      .on('resource_permissions')
      .columns(['occupation_id', 'budget_id'])
      .where(sql.ref('sub_budget_id'), 'is not', null)
      .execute();
    // The permission screens read a document's or an organisation's grants of every occupation.
    await db.schema.createIndex('resource_permissions_document').on('resource_permissions').columns(['document_id', 'occupation_id']).execute();
    await db.schema.createIndex('resource_permissions_organization').on('resource_permissions').columns(['organization_id', 'occupation_id']).execute();
  },
  async handle(events: StoredEvent[], db) {
    for (const event of events) await apply(db, event as unknown as ResourcePermissionEvent);
  },
});
