import {
  APPROVAL_ACTION_OF_EVENT,
  BUDGET_APPROVAL_EVENT_TYPES,
  type BudgetApprovalEvent,
  type BudgetDeleted,
  type DocumentDeleted,
  type OrganizationDeleted,
} from '@eelarve/domain';
import type { StoredEvent } from '@eelarve/eventstore';
import type { Kysely } from 'kysely';
import { defineProjector } from '../projector';
import type { BudgetApprovalReadModel } from './tables';

type Db = Kysely<BudgetApprovalReadModel>;
type Handled = BudgetApprovalEvent | BudgetDeleted | DocumentDeleted | OrganizationDeleted;
const TABLES = ['budget_approval_states', 'budget_approval_history'] as const;

/** One step: a history row (idempotent by stream revision) and the budget's current step. */
async function recordStep(db: Db, event: BudgetApprovalEvent, revision: number): Promise<void> {
  const d = event.data;
  const owner = { budget_id: d.budgetId, document_id: d.documentId, organization_id: d.organizationId };
  await db
    .insertInto('budget_approval_history')
    .values({
      ...owner,
      revision,
      action: APPROVAL_ACTION_OF_EVENT[event.type],
      from_step: d.fromStep,
      to_step: d.toStep,
      user_id: d.userId,
      occupation_id: d.occupationId,
      at: d.at,
      reason: d.reason,
      resource_status_id: d.resourceStatusId,
    })
    .onConflict((oc) => oc.columns(['budget_id', 'revision']).doNothing())
    .execute();
  await db
    .insertInto('budget_approval_states')
    .values({ ...owner, step: d.toStep, revision, updated_at: d.at })
    .onConflict((oc) =>
      oc.column('budget_id').doUpdateSet({ step: d.toStep, revision, updated_at: d.at }).where('budget_approval_states.revision', '<', revision),
    )
    .execute();
}

async function apply(db: Db, event: Handled, revision: number): Promise<void> {
  switch (event.type) {
    case 'BudgetSubmittedForApproval':
    case 'BudgetApproved':
    case 'BudgetSentBack':
    case 'BudgetApprovalReopened':
      await recordStep(db, event, revision);
      return;
    // A deleted budget, document or organisation takes its route along.
    case 'BudgetDeleted':
      for (const table of TABLES) await db.deleteFrom(table).where('budget_id', '=', event.data.budgetId).execute();
      return;
    case 'DocumentDeleted':
      for (const table of TABLES) await db.deleteFrom(table).where('document_id', '=', event.data.documentId).execute();
      return;
    case 'OrganizationDeleted':
      for (const table of TABLES) await db.deleteFrom(table).where('organization_id', '=', event.data.organizationId).execute();
      return;
  }
}

/** Each budget's approval step and its full history (who, occupation, when, why), from the route streams. */
export const budgetApprovalProjector = defineProjector<BudgetApprovalReadModel>({
  name: 'budget_approval',
  version: 1,
  eventTypes: [...BUDGET_APPROVAL_EVENT_TYPES, 'BudgetDeleted', 'DocumentDeleted', 'OrganizationDeleted'],
  tables: [...TABLES],
  async migrate(db) {
    await db.schema
      .createTable('budget_approval_states')
      .addColumn('budget_id', 'uuid', (col) => col.primaryKey())
      .addColumn('document_id', 'uuid', (col) => col.notNull())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('step', 'text', (col) => col.notNull())
      .addColumn('revision', 'integer', (col) => col.notNull())
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('budget_approval_states_document').on('budget_approval_states').column('document_id').execute();
    await db.schema.createIndex('budget_approval_states_organization').on('budget_approval_states').column('organization_id').execute();
    await db.schema
      .createTable('budget_approval_history')
      .addColumn('budget_id', 'uuid', (col) => col.notNull())
      .addColumn('revision', 'integer', (col) => col.notNull())
      .addColumn('document_id', 'uuid', (col) => col.notNull())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('action', 'text', (col) => col.notNull())
      .addColumn('from_step', 'text', (col) => col.notNull())
      .addColumn('to_step', 'text', (col) => col.notNull())
      .addColumn('user_id', 'uuid', (col) => col.notNull())
      .addColumn('occupation_id', 'uuid', (col) => col.notNull())
      .addColumn('at', 'timestamptz', (col) => col.notNull())
      .addColumn('reason', 'text', (col) => col.notNull())
      .addColumn('resource_status_id', 'uuid')
      .addPrimaryKeyConstraint('budget_approval_history_pk', ['budget_id', 'revision'])
      .execute();
    await db.schema.createIndex('budget_approval_history_document').on('budget_approval_history').column('document_id').execute();
    await db.schema.createIndex('budget_approval_history_organization').on('budget_approval_history').column('organization_id').execute();
  },
  async handle(events: StoredEvent[], db) {
    for (const event of events) await apply(db, event as unknown as Handled, Number(event.revision));
  },
});
