import { type DocumentEvent, SCHEME_EVENT_TYPES, type SchemeEvent } from '@eelarve/domain';
import type { Kysely } from 'kysely';
import { defineProjector } from '../projector';
import type { SchemesReadModel } from './tables';

type Db = Kysely<SchemesReadModel>;
const CHUNK = 1_000;

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < rows.length; index += CHUNK) out.push(rows.slice(index, index + CHUNK));
  return out;
}

async function setValues(db: Db, documentId: string, subBudgets: { id: string; classifiers: Record<string, string> }[]): Promise<void> {
  if (subBudgets.length === 0) return;
  await db
    .deleteFrom('sub_budget_values')
    .where(
      'sub_budget_id',
      'in',
      subBudgets.map((subBudget) => subBudget.id),
    )
    .execute();
  const rows = subBudgets.flatMap((subBudget) =>
    Object.entries(subBudget.classifiers).map(([classifier_id, code]) => ({ sub_budget_id: subBudget.id, classifier_id, code, document_id: documentId })),
  );
  for (const chunk of chunks(rows)) await db.insertInto('sub_budget_values').values(chunk).execute();
}

async function setSchemeClassifiers(db: Db, schemeId: string, documentId: string, list: { classifierId: string; type: 'MAIN' | 'SECONDARY' }[]): Promise<void> {
  await db.deleteFrom('scheme_classifiers').where('scheme_id', '=', schemeId).execute();
  if (list.length > 0) {
    await db
      .insertInto('scheme_classifiers')
      .values(list.map((entry) => ({ scheme_id: schemeId, classifier_id: entry.classifierId, document_id: documentId, type: entry.type })))
      .execute();
  }
}

async function applyScheme(db: Db, event: SchemeEvent): Promise<void> {
  switch (event.type) {
    case 'SchemeCreated':
    case 'SchemeUpdated': {
      const { schemeId, documentId, organizationId, name, fieldName, description, displayOrder, classifierList } = event.data;
      const row = { name, field_name: fieldName, description, display_order: displayOrder, classifier_list: JSON.stringify(classifierList) };
      await db
        .insertInto('schemes')
        .values({ id: schemeId, document_id: documentId, organization_id: organizationId, ...row })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute();
      await setSchemeClassifiers(db, schemeId, documentId, classifierList);
      return;
    }
    case 'SchemeDeleted':
      await db.deleteFrom('schemes').where('id', '=', event.data.schemeId).execute();
      await db.deleteFrom('scheme_classifiers').where('scheme_id', '=', event.data.schemeId).execute();
      await db.deleteFrom('sub_budget_pins').where('scheme_id', '=', event.data.schemeId).execute();
      return;
    case 'SchemesReordered':
      for (const { id, displayOrder } of event.data.list) await db.updateTable('schemes').set({ display_order: displayOrder }).where('id', '=', id).execute();
      return;
    case 'SubBudgetsAdded': {
      const { schemeId, documentId, organizationId, subBudgets } = event.data;
      for (const chunk of chunks(subBudgets)) {
        await db
          .insertInto('sub_budgets')
          .values(
            chunk.map((subBudget) => ({
              id: subBudget.subBudgetId,
              scheme_id: schemeId,
              document_id: documentId,
              organization_id: organizationId,
              name: subBudget.name,
              classifiers: JSON.stringify(subBudget.classifiers),
              preselections: JSON.stringify(subBudget.preselections),
            })),
          )
          .execute();
      }
      await setValues(
        db,
        documentId,
        subBudgets.map((subBudget) => ({ id: subBudget.subBudgetId, classifiers: subBudget.classifiers })),
      );
      return;
    }
    case 'SubBudgetUpdated': {
      const { subBudgetId, documentId, name, classifiers } = event.data;
      await db
        .updateTable('sub_budgets')
        .set({ name, classifiers: JSON.stringify(classifiers) })
        .where('id', '=', subBudgetId)
        .execute();
      await setValues(db, documentId, [{ id: subBudgetId, classifiers }]);
      return;
    }
    case 'SubBudgetsDeleted':
      for (const ids of chunks(event.data.subBudgetIds)) {
        await db.deleteFrom('sub_budgets').where('id', 'in', ids).execute();
        await db.deleteFrom('sub_budget_values').where('sub_budget_id', 'in', ids).execute();
        await db.deleteFrom('sub_budget_pins').where('sub_budget_id', 'in', ids).execute();
      }
      return;
    case 'ClassifierPreselectionsSet':
      for (const { subBudgetId, preselections } of event.data.list) {
        await db
          .updateTable('sub_budgets')
          .set({ preselections: JSON.stringify(preselections) })
          .where('id', '=', subBudgetId)
          .execute();
      }
      return;
    case 'SubBudgetsPinned': {
      const { budgetId, schemeId, documentId, pinned } = event.data;
      await db.deleteFrom('sub_budget_pins').where('budget_id', '=', budgetId).where('scheme_id', '=', schemeId).execute();
      if (pinned.length > 0) {
        await db
          .insertInto('sub_budget_pins')
          .values(pinned.map((subBudgetId) => ({ budget_id: budgetId, scheme_id: schemeId, sub_budget_id: subBudgetId, document_id: documentId })))
          .execute();
      }
      return;
    }
  }
}

const SCHEME_TYPES = new Set<string>(SCHEME_EVENT_TYPES);

/** Schemes, sub-budgets (with their values and preselections) and budgets' pinned sub-budgets. */
export const schemesProjector = defineProjector<SchemesReadModel>({
  name: 'schemes',
  version: 1,
  eventTypes: [...SCHEME_EVENT_TYPES, 'DocumentDeleted', 'BudgetDeleted'],
  tables: ['schemes', 'scheme_classifiers', 'sub_budgets', 'sub_budget_values', 'sub_budget_pins'],
  async migrate(db) {
    await db.schema
      .createTable('schemes')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('document_id', 'uuid', (col) => col.notNull())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('field_name', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('display_order', 'integer', (col) => col.notNull())
      .addColumn('classifier_list', 'jsonb', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('schemes_document').on('schemes').columns(['document_id', 'display_order']).execute();
    await db.schema.createIndex('schemes_organization').on('schemes').column('organization_id').execute();
    await db.schema
      .createTable('scheme_classifiers')
      .addColumn('scheme_id', 'uuid', (col) => col.notNull())
      .addColumn('classifier_id', 'uuid', (col) => col.notNull())
      .addColumn('document_id', 'uuid', (col) => col.notNull())
      .addColumn('type', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('scheme_classifiers_pk', ['scheme_id', 'classifier_id'])
      .execute();
    await db.schema.createIndex('scheme_classifiers_classifier').on('scheme_classifiers').column('classifier_id').execute();
    await db.schema
      .createTable('sub_budgets')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('scheme_id', 'uuid', (col) => col.notNull())
      .addColumn('document_id', 'uuid', (col) => col.notNull())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('classifiers', 'jsonb', (col) => col.notNull())
      .addColumn('preselections', 'jsonb', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('sub_budgets_scheme').on('sub_budgets').column('scheme_id').execute();
    await db.schema.createIndex('sub_budgets_document').on('sub_budgets').column('document_id').execute();
    await db.schema
      .createTable('sub_budget_values')
      .addColumn('sub_budget_id', 'uuid', (col) => col.notNull())
      .addColumn('classifier_id', 'uuid', (col) => col.notNull())
      .addColumn('code', 'text', (col) => col.notNull())
      .addColumn('document_id', 'uuid', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('sub_budget_values_sub_budget').on('sub_budget_values').column('sub_budget_id').execute();
    await db.schema.createIndex('sub_budget_values_item').on('sub_budget_values').columns(['classifier_id', 'code']).execute();
    await db.schema
      .createTable('sub_budget_pins')
      .addColumn('budget_id', 'uuid', (col) => col.notNull())
      .addColumn('scheme_id', 'uuid', (col) => col.notNull())
      .addColumn('sub_budget_id', 'uuid', (col) => col.notNull())
      .addColumn('document_id', 'uuid', (col) => col.notNull())
      .addPrimaryKeyConstraint('sub_budget_pins_pk', ['budget_id', 'sub_budget_id'])
      .execute();
    await db.schema.createIndex('sub_budget_pins_sub_budget').on('sub_budget_pins').column('sub_budget_id').execute();
  },
  async handle(events, db) {
    for (const stored of events) {
      if (SCHEME_TYPES.has(stored.type)) {
        await applyScheme(db, stored as unknown as SchemeEvent);
        continue;
      }
      if (stored.type === 'BudgetDeleted') {
        // A deleted budget pins nothing.
        await db
          .deleteFrom('sub_budget_pins')
          .where('budget_id', '=', (stored.data as { budgetId: string }).budgetId)
          .execute();
        continue;
      }
      const event = stored as unknown as DocumentEvent;
      if (event.type !== 'DocumentDeleted') continue;
      const documentId = event.data.documentId;
      for (const table of ['schemes', 'scheme_classifiers', 'sub_budgets', 'sub_budget_values', 'sub_budget_pins'] as const) {
        await db.deleteFrom(table).where('document_id', '=', documentId).execute();
      }
    }
  },
});
