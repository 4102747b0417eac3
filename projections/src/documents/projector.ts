import {
  type BudgetDeleted,
  DOCUMENT_EVENT_TYPES,
  DOCUMENT_ORDER_EVENT_TYPES,
  type DocumentEvent,
  type DocumentOrderEvent,
  type RecordCreated,
  type RecordDeleted,
  type RecordRestored,
  type RecordsImported,
} from '@eelarve/domain';
import type { StoredEvent } from '@eelarve/eventstore';
import { LIMITS } from '@eelarve/shared';
import { type Kysely, sql } from 'kysely';
import { defineProjector } from '../projector';
import type { DocumentsReadModel } from './tables';

type Db = Kysely<DocumentsReadModel>;
type RecordCountEvent = RecordCreated | RecordRestored | RecordDeleted | RecordsImported | BudgetDeleted;
const RECORD_COUNT_EVENT_TYPES = ['RecordCreated', 'RecordRestored', 'RecordDeleted', 'RecordsImported', 'BudgetDeleted'] as const;

/** Adds `change` records to a budget's count and to its document's `records_count` (the period lock reads it). */
async function countRecords(db: Db, budgetId: string, documentId: string, change: number): Promise<void> {
  if (change === 0) return;
  await db
    .insertInto('budget_record_counts')
    .values({ budget_id: budgetId, document_id: documentId, records: change })
    .onConflict((oc) => oc.column('budget_id').doUpdateSet({ records: sql`budget_record_counts.records + ${change}` }))
    .execute();
  await db
    .updateTable('documents')
    .set({ records_count: sql`records_count + ${change}` })
    .where('id', '=', documentId)
    .execute();
}

async function applyRecordCount(db: Db, event: RecordCountEvent): Promise<void> {
  switch (event.type) {
    case 'RecordCreated':
    case 'RecordRestored':
      return countRecords(db, event.data.budgetId, event.data.documentId, 1);
    case 'RecordDeleted':
      return countRecords(db, event.data.budgetId, event.data.documentId, -1);
    case 'RecordsImported':
      return countRecords(db, event.data.budgetId, event.data.documentId, event.data.records.length);
    case 'BudgetDeleted': {
      // The budget's records go with it.
      const counted = await db
        .deleteFrom('budget_record_counts')
        .where('budget_id', '=', event.data.budgetId)
        .returning(['document_id', 'records'])
        .executeTakeFirst();
      if (counted)
        await db
          .updateTable('documents')
          .set({ records_count: sql`greatest(0, records_count - ${counted.records})` })
          .where('id', '=', counted.document_id)
          .execute();
      return;
    }
  }
}

const isRecordCountEvent = (event: { type: string }): event is RecordCountEvent => (RECORD_COUNT_EVENT_TYPES as readonly string[]).includes(event.type);

async function apply(db: Db, event: DocumentEvent | DocumentOrderEvent | RecordCountEvent): Promise<void> {
  if (isRecordCountEvent(event)) return applyRecordCount(db, event);
  switch (event.type) {
    case 'DocumentCreated': {
      const { documentId, organizationId, name, description, period, recordAmountKey, allowCommentingWithReadPermissions, resourceStatusId, createdAt } =
        event.data;
      // A new document goes to the top of its organisation's list.
      const top = await db
        .selectFrom('documents')
        .select((eb) => eb.fn.max('sort_order').as('max'))
        .where('organization_id', '=', organizationId)
        .executeTakeFirst();
      await db
        .insertInto('documents')
        .values({
          id: documentId,
          organization_id: organizationId,
          name,
          description,
          period_year: period.year,
          period_month: period.month,
          period_duration: period.duration,
          master_classifier_id: null,
          record_amount_key: recordAmountKey,
          allow_commenting_with_read_permissions: allowCommentingWithReadPermissions,
          resource_status_id: resourceStatusId,
          // Never past the integer column's maximum: a document reordered to the top value shares it.
          sort_order: Math.min(LIMITS.integerMax, Number(top?.max ?? 0) + 1),
          records_count: 0,
          created_at: createdAt,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      return;
    }
    case 'DocumentUpdated': {
      const { documentId, name, description, period, masterClassifierId, recordAmountKey, allowCommentingWithReadPermissions, resourceStatusId } = event.data;
      await db
        .updateTable('documents')
        .set({
          name,
          description,
          period_year: period.year,
          period_month: period.month,
          period_duration: period.duration,
          master_classifier_id: masterClassifierId,
          record_amount_key: recordAmountKey,
          allow_commenting_with_read_permissions: allowCommentingWithReadPermissions,
          resource_status_id: resourceStatusId,
        })
        .where('id', '=', documentId)
        .execute();
      return;
    }
    case 'DocumentDeleted':
      await db.deleteFrom('documents').where('id', '=', event.data.documentId).execute();
      await db.deleteFrom('budget_record_counts').where('document_id', '=', event.data.documentId).execute();
      return;
    case 'DocumentsReordered': {
      const { organizationId, list } = event.data;
      if (list.length === 0) return;
      await sql`
        update documents d set sort_order = o.sort_order
        from unnest(${list.map((entry) => entry.id)}::uuid[], ${list.map((entry) => entry.order)}::int[]) as o(id, sort_order)
        where d.id = o.id and d.organization_id = ${organizationId}::uuid`.execute(db);
      return;
    }
  }
}

/**
 * Documents (budget periods) and their order: the document sider, settings and every document
 * screen; and how many records each document's budgets hold (version 2), counted from the record
 * events so the document list and the period lock need not count a million rows.
 */
export const documentsProjector = defineProjector<DocumentsReadModel>({
  name: 'documents',
  version: 2,
  eventTypes: [...DOCUMENT_EVENT_TYPES, ...DOCUMENT_ORDER_EVENT_TYPES, ...RECORD_COUNT_EVENT_TYPES],
  tables: ['documents', 'budget_record_counts'],
  // An import's chunks only add to the counts here: the records screen's rows go first.
  yieldsTo: ['records'],
  async migrate(db) {
    await db.schema
      .createTable('documents')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('period_year', 'integer', (col) => col.notNull())
      .addColumn('period_month', 'integer', (col) => col.notNull())
      .addColumn('period_duration', 'integer', (col) => col.notNull())
      .addColumn('master_classifier_id', 'uuid')
      .addColumn('record_amount_key', 'text', (col) => col.notNull())
      .addColumn('allow_commenting_with_read_permissions', 'boolean', (col) => col.notNull())
      .addColumn('resource_status_id', 'uuid')
      .addColumn('sort_order', 'integer', (col) => col.notNull())
      .addColumn('records_count', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'timestamptz', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('documents_organization').on('documents').columns(['organization_id', 'sort_order']).execute();
    await db.schema
      .createTable('budget_record_counts')
      .addColumn('budget_id', 'uuid', (col) => col.primaryKey())
      .addColumn('document_id', 'uuid', (col) => col.notNull())
      .addColumn('records', 'integer', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('budget_record_counts_document').on('budget_record_counts').column('document_id').execute();
  },
  async handle(events: StoredEvent[], db) {
    for (const event of events) await apply(db, event as unknown as DocumentEvent | DocumentOrderEvent | RecordCountEvent);
  },
});
