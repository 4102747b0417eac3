import { BUDGET_EVENT_TYPES, BUDGET_ORDER_EVENT_TYPES, type BudgetEvent, type BudgetOrderEvent } from '@eelarve/domain';
import type { StoredEvent } from '@eelarve/eventstore';
import { LIMITS } from '@eelarve/shared';
import { type Kysely, sql } from 'kysely';
import { defineProjector } from '../projector';
import type { BudgetsReadModel } from './tables';

type Db = Kysely<BudgetsReadModel>;

/** The import address path of a monitoring budget; the gateway prefixes the public URL. */
export const budgetImportPath = (budgetId: string) => `/budgets/${budgetId}/import`;

/** A deleted document takes its budgets along (their streams stay, but nothing reaches them any more). */
type DocumentGone = { type: 'DocumentDeleted'; data: { documentId: string } };

async function apply(db: Db, event: BudgetEvent | BudgetOrderEvent | DocumentGone): Promise<void> {
  switch (event.type) {
    case 'DocumentDeleted':
      await db.deleteFrom('budgets').where('document_id', '=', event.data.documentId).execute();
      return;
    case 'BudgetCreated': {
      const d = event.data;
      // A new budget goes last: one below the lowest order of the document.
      const lowest = await db
        .selectFrom('budgets')
        .select(sql<number | null>`min(sort_order)`.as('lowest'))
        .where('document_id', '=', d.documentId)
        .executeTakeFirst();
      // Never below the integer column's minimum (2^31 creates away): the last ones would share it.
      const sortOrder = Math.max(LIMITS.integerMin, (lowest?.lowest ?? 1) - 1);
      const row = {
        document_id: d.documentId,
        organization_id: d.organizationId,
        name: d.name,
        description: d.description,
        type: d.type,
        tags: d.tags,
        resource_status_id: d.resourceStatusId,
        sort_order: sortOrder,
        sum_budget_component_ids: d.sumBudgetComponentIds,
        api_url: d.type === 'MONITORING' ? budgetImportPath(d.budgetId) : null,
        gw_url: d.gwUrl,
        erp_url: d.erpUrl,
        sync_enabled: false,
        last_execution_time: null,
        created_at: d.createdAt,
        copied_from: d.copiedFrom ? JSON.stringify(d.copiedFrom) : null,
      };
      await db
        .insertInto('budgets')
        .values({ id: d.budgetId, ...row })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      return;
    }
    case 'BudgetUpdated': {
      const { budgetId, name, description, resourceStatusId, sumBudgetComponentIds, gwUrl, erpUrl } = event.data;
      await db
        .updateTable('budgets')
        .set({ name, description, resource_status_id: resourceStatusId, sum_budget_component_ids: sumBudgetComponentIds, gw_url: gwUrl, erp_url: erpUrl })
        .where('id', '=', budgetId)
        .execute();
      return;
    }
    case 'BudgetTagsSet':
      await db.updateTable('budgets').set({ tags: event.data.tags }).where('id', '=', event.data.budgetId).execute();
      return;
    case 'BudgetSyncSet':
      await db.updateTable('budgets').set({ sync_enabled: event.data.enabled }).where('id', '=', event.data.budgetId).execute();
      return;
    case 'BudgetApiKeyIssued':
      return;
    case 'BudgetDeleted':
      await db.deleteFrom('budgets').where('id', '=', event.data.budgetId).execute();
      // The delete rule reads the read models, so a concurrent sum budget could slip through; never leave a dangling id.
      await db
        .updateTable('budgets')
        .set({ sum_budget_component_ids: sql`array_remove(sum_budget_component_ids, ${event.data.budgetId}::uuid)` })
        .where(sql<boolean>`${event.data.budgetId}::uuid = any(sum_budget_component_ids)`)
        .execute();
      return;
    case 'BudgetsReordered':
      for (const { id, order } of event.data.list) {
        await db.updateTable('budgets').set({ sort_order: order }).where('id', '=', id).where('document_id', '=', event.data.documentId).execute();
      }
      return;
  }
}

/** A document's budgets in their order, with type, tags, sum components and monitoring settings. */
export const budgetsProjector = defineProjector<BudgetsReadModel>({
  name: 'budgets',
  version: 1,
  eventTypes: [...BUDGET_EVENT_TYPES, ...BUDGET_ORDER_EVENT_TYPES, 'DocumentDeleted'],
  tables: ['budgets'],
  async migrate(db) {
    await db.schema
      .createTable('budgets')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('document_id', 'uuid', (col) => col.notNull())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('tags', sql`text[]`, (col) => col.notNull())
      .addColumn('resource_status_id', 'uuid')
      .addColumn('sort_order', 'integer', (col) => col.notNull())
      .addColumn('sum_budget_component_ids', sql`uuid[]`, (col) => col.notNull())
      .addColumn('api_url', 'text')
      .addColumn('gw_url', 'text')
      .addColumn('erp_url', 'text')
      .addColumn('sync_enabled', 'boolean', (col) => col.notNull())
      .addColumn('last_execution_time', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull())
      .addColumn('copied_from', 'jsonb')
      .execute();
    await db.schema.createIndex('budgets_document').on('budgets').columns(['document_id', 'sort_order']).execute();
    await db.schema.createIndex('budgets_organization').on('budgets').column('organization_id').execute();
    await db.schema.createIndex('budgets_components').on('budgets').using('gin').column('sum_budget_component_ids').execute();
  },
  async handle(events: StoredEvent[], db) {
    for (const event of events) await apply(db, event as unknown as BudgetEvent | BudgetOrderEvent | DocumentGone);
  },
});
