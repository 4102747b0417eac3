import {
  CLASSIFIER_EVENT_TYPES,
  CLASSIFIER_ORDER_EVENT_TYPES,
  type ClassifierEvent,
  type ClassifierItemData,
  type ClassifiersReordered,
} from '@eelarve/domain';
import type { StoredEvent } from '@eelarve/eventstore';
import { type Kysely, sql } from 'kysely';
import { defineProjector } from '../projector';
import type { ClassifiersReadModel } from './tables';

type Db = Kysely<ClassifiersReadModel>;

/**
 * Items arrive in large events (an import is one event of up to 100,000 items): they are written
 * with one statement per event, the items passed as a single JSON parameter and expanded by
 * jsonb_to_recordset, never one statement per item.
 */
async function upsertItems(db: Db, classifierId: string, documentId: string, items: ClassifierItemData[]): Promise<void> {
  if (items.length === 0) return;
  const payload = JSON.stringify(items.map((item) => ({ ...item, groupedBy: item.groupedBy })));
  await sql`
    insert into classifier_items (id, classifier_id, document_id, code, name, description, sign, unselectable, grouped_by)
    select x.id, ${classifierId}::uuid, ${documentId}::uuid, x.code, x.name, x.description, x.sign, x.unselectable, coalesce(x."groupedBy", '[]'::jsonb)
    from jsonb_to_recordset(${payload}::jsonb) as x(id uuid, code text, name text, description text, sign smallint, unselectable boolean, "groupedBy" jsonb)
    on conflict (id) do update set code = excluded.code, name = excluded.name, description = excluded.description, sign = excluded.sign,
      unselectable = excluded.unselectable, grouped_by = excluded.grouped_by`.execute(db);
}

async function apply(db: Db, event: ClassifierEvent | ClassifiersReordered): Promise<void> {
  switch (event.type) {
    case 'ClassifierCreated':
    case 'ClassifierUpdated': {
      const data = event.data;
      const row = {
        document_id: data.documentId,
        organization_id: data.organizationId,
        name: data.name,
        item_name: data.itemName,
        field_name: data.fieldName,
        description: data.description,
        required: data.required,
        item_can_change_sign: data.itemCanChangeSign,
        is_primary: data.primary,
        primary_grouped_by_id: data.primaryGroupedById,
        display_order: data.displayOrder,
        display_mode: data.displayMode,
        code_type: data.codeSettings.typeName,
        type_regex: data.codeSettings.typeRegex,
        regex_flag: data.codeSettings.regexFlag,
        min_length: data.codeSettings.minLength,
        max_length: data.codeSettings.maxLength,
        hierarchical: data.codeSettings.hierarchical,
        ranking: data.codeSettings.ranking,
      };
      if (event.type === 'ClassifierCreated') {
        await db
          .insertInto('classifiers')
          .values({ id: data.classifierId, grouping_id: event.data.groupingId, ...row })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
      } else await db.updateTable('classifiers').set(row).where('id', '=', data.classifierId).execute();
      return;
    }
    case 'ClassifierDeleted':
      await db.deleteFrom('classifier_items').where('classifier_id', '=', event.data.classifierId).execute();
      await db.deleteFrom('classifiers').where('id', '=', event.data.classifierId).execute();
      // A grouping classifier (without items, or it could not be deleted) stops being anyone's primary grouping.
      await db.updateTable('classifiers').set({ primary_grouped_by_id: null }).where('primary_grouped_by_id', '=', event.data.classifierId).execute();
      return;
    case 'ClassifierItemsAdded':
    case 'ClassifierItemsUpdated':
      await upsertItems(db, event.data.classifierId, event.data.documentId, event.data.items);
      return;
    case 'ClassifierItemsDeleted':
      await sql`delete from classifier_items where classifier_id = ${event.data.classifierId}::uuid and id = any(${event.data.itemIds}::uuid[])`.execute(db);
      return;
    case 'ClassifiersReordered': {
      const { documentId, list } = event.data;
      if (list.length === 0) return;
      await sql`
        update classifiers c set display_order = o.display_order
        from unnest(${list.map((entry) => entry.id)}::uuid[], ${list.map((entry) => entry.displayOrder)}::int[]) as o(id, display_order)
        where c.id = o.id and c.document_id = ${documentId}::uuid`.execute(db);
      return;
    }
  }
}

/** Classifiers and their items: the classifiers tab, item pickers, schemes and sub-budgets. */
export const classifiersProjector = defineProjector<ClassifiersReadModel>({
  name: 'classifiers',
  version: 1,
  eventTypes: [...CLASSIFIER_EVENT_TYPES, ...CLASSIFIER_ORDER_EVENT_TYPES],
  tables: ['classifiers', 'classifier_items'],
  async migrate(db) {
    await db.schema
      .createTable('classifiers')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('document_id', 'uuid', (col) => col.notNull())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('item_name', 'text', (col) => col.notNull())
      .addColumn('field_name', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('required', 'boolean', (col) => col.notNull())
      .addColumn('item_can_change_sign', 'boolean', (col) => col.notNull())
      .addColumn('is_primary', 'boolean', (col) => col.notNull())
      .addColumn('grouping_id', 'uuid')
      .addColumn('primary_grouped_by_id', 'uuid')
      .addColumn('display_order', 'integer', (col) => col.notNull())
      .addColumn('display_mode', 'text', (col) => col.notNull())
      .addColumn('code_type', 'text', (col) => col.notNull())
      .addColumn('type_regex', 'text', (col) => col.notNull())
      .addColumn('regex_flag', 'text', (col) => col.notNull())
      .addColumn('min_length', 'integer', (col) => col.notNull())
      .addColumn('max_length', 'integer', (col) => col.notNull())
      .addColumn('hierarchical', 'boolean', (col) => col.notNull())
      .addColumn('ranking', 'integer', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('classifiers_document').on('classifiers').column('document_id').execute();
    await db.schema.createIndex('classifiers_grouping').on('classifiers').column('grouping_id').execute();
    await db.schema
      .createTable('classifier_items')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('classifier_id', 'uuid', (col) => col.notNull())
      .addColumn('document_id', 'uuid', (col) => col.notNull())
      .addColumn('code', 'text', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('sign', 'smallint')
      .addColumn('unselectable', 'boolean', (col) => col.notNull())
      .addColumn('grouped_by', 'jsonb', (col) => col.notNull())
      .addColumn('seq', 'bigserial', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('classifier_items_classifier').on('classifier_items').columns(['classifier_id', 'seq']).execute();
  },
  async handle(events: StoredEvent[], db) {
    for (const stored of events) await apply(db, stored as unknown as ClassifierEvent | ClassifiersReordered);
  },
});
