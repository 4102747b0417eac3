import type { ClassifierContext, GroupingContext } from '@eelarve/domain';
import { type Classifier, type ClassifierItem, type CodeTypeName, DomainError, type DisplayMode } from '@eelarve/shared';
import type { ClassifiersTable } from '@eelarve/projections/classifiers/tables';
import { sql } from 'kysely';
import { type AppDatabase, readModels } from '../../infrastructure/database';

export type ClassifierRow = ClassifiersTable;

export async function findClassifier(db: AppDatabase, classifierId: string): Promise<ClassifierRow> {
  const row = await readModels(db).selectFrom('classifiers').selectAll().where('id', '=', classifierId).executeTakeFirst();
  if (!row) throw new DomainError('CLASSIFIER_NOT_FOUND');
  return row;
}

export async function findDocument(db: AppDatabase, documentId: string) {
  const row = await readModels(db).selectFrom('documents').select(['id', 'organization_id', 'master_classifier_id']).where('id', '=', documentId).executeTakeFirst();
  if (!row) throw new DomainError('OBJECT_NOT_FOUND', 'document not found');
  return row;
}

function toClassifier(row: ClassifierRow, extra: { groupedByIds: string[]; inUseSchema: boolean; master: boolean; itemsCount?: number }): Classifier {
  return {
    id: row.id,
    documentId: row.document_id,
    name: row.name,
    itemName: row.item_name,
    fieldName: row.field_name,
    description: row.description,
    required: row.required,
    itemCanChangeSign: row.item_can_change_sign,
    primary: row.is_primary,
    groupingId: row.grouping_id,
    groupedByIds: extra.groupedByIds,
    primaryGroupedById: row.primary_grouped_by_id,
    displayOrder: row.display_order,
    displayMode: row.display_mode as DisplayMode,
    isInUseSchema: extra.inUseSchema,
    master: extra.master,
    codeSettings: {
      typeName: row.code_type as CodeTypeName,
      typeRegex: row.type_regex,
      regexFlag: row.regex_flag,
      minLength: row.min_length,
      maxLength: row.max_length,
      hierarchical: row.hierarchical,
      ranking: row.ranking,
    },
    ...(extra.itemsCount !== undefined ? { itemsCount: extra.itemsCount } : {}),
  };
}

/** Classifiers of the given document or ids, with grouped-by ids, scheme use and master flag. */
export async function listClassifiers(db: AppDatabase, filter: { documentId?: string; ids?: string[] }, includeMeta: boolean): Promise<Classifier[]> {
  let query = readModels(db).selectFrom('classifiers').selectAll();
  if (filter.documentId) query = query.where('document_id', '=', filter.documentId);
  if (filter.ids) query = query.where('id', 'in', filter.ids.length > 0 ? filter.ids : ['00000000-0000-0000-0000-000000000000']);
  const rows = await query.orderBy('display_order').orderBy('name').execute();
  if (rows.length === 0) return [];
  const documentIds = [...new Set(rows.map((row) => row.document_id))];
  const ids = rows.map((row) => row.id);
  const [groupings, inSchemes, masters, counts] = await Promise.all([
    readModels(db).selectFrom('classifiers').select(['id', 'grouping_id']).where('grouping_id', 'in', ids).orderBy('display_order').execute(),
    readModels(db).selectFrom('scheme_classifiers').select('classifier_id').distinct().where('classifier_id', 'in', ids).execute(),
    readModels(db).selectFrom('documents').select('master_classifier_id').where('id', 'in', documentIds).execute(),
    includeMeta
      ? readModels(db).selectFrom('classifier_items').select(['classifier_id', (eb) => eb.fn.countAll<string>().as('count')]).where('classifier_id', 'in', ids).groupBy('classifier_id').execute()
      : Promise.resolve([]),
  ]);
  const used = new Set(inSchemes.map((row) => row.classifier_id));
  const masterIds = new Set(masters.map((row) => row.master_classifier_id));
  const countOf = new Map(counts.map((row) => [row.classifier_id, Number(row.count)]));
  return rows.map((row) =>
    toClassifier(row, {
      groupedByIds: groupings.filter((grouping) => grouping.grouping_id === row.id).map((grouping) => grouping.id),
      inUseSchema: used.has(row.id),
      master: masterIds.has(row.id),
      ...(includeMeta ? { itemsCount: countOf.get(row.id) ?? 0 } : {}),
    }),
  );
}

/** Grouping classifiers of a classifier (those with grouping_id = it), each with its items: one query for each. */
export async function groupingContexts(db: AppDatabase, classifierId: string): Promise<GroupingContext[]> {
  const groupings = await readModels(db)
    .selectFrom('classifiers')
    .select(['id', 'field_name', 'required'])
    .where('grouping_id', '=', classifierId)
    .orderBy('display_order')
    .orderBy('name')
    .execute();
  if (groupings.length === 0) return [];
  const items = await readModels(db)
    .selectFrom('classifier_items')
    .select(['id', 'classifier_id', 'code', 'unselectable'])
    .where(
      'classifier_id',
      'in',
      groupings.map((grouping) => grouping.id),
    )
    .execute();
  return groupings.map((grouping) => ({
    classifierId: grouping.id,
    fieldName: grouping.field_name,
    required: grouping.required,
    items: items.filter((item) => item.classifier_id === grouping.id).map(({ id, code, unselectable }) => ({ id, code, unselectable })),
  }));
}

/**
 * Records of the document without a value for the classifier. Records arrive with a later issue;
 * until then there are none, so this answers 0.
 */
export async function recordsWithoutClassifierValue(_db: AppDatabase, _classifierId: string): Promise<number> {
  return 0;
}

/** The facts the classifier rules need from other aggregates (ClassifierContext). */
export async function classifierContext(db: AppDatabase, input: { classifierId: string | null; documentId: string; groupingId: string | null }): Promise<ClassifierContext> {
  const document = await findDocument(db, input.documentId);
  const master = document.master_classifier_id;
  const groupedByIds = input.classifierId
    ? (await readModels(db).selectFrom('classifiers').select('id').where('grouping_id', '=', input.classifierId).execute()).map((row) => row.id)
    : [];
  const secondary = input.classifierId
    ? await readModels(db).selectFrom('scheme_classifiers').select('scheme_id').where('classifier_id', '=', input.classifierId).where('type', '=', 'SECONDARY').executeTakeFirst()
    : undefined;
  let groupedItemsWithoutValue = 0;
  if (input.groupingId) {
    const reference = JSON.stringify([{ classifierId: input.classifierId ?? '00000000-0000-0000-0000-000000000000' }]);
    const row = await readModels(db)
      .selectFrom('classifier_items')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('classifier_id', '=', input.groupingId)
      .where(sql<boolean>`not (grouped_by @> ${reference}::jsonb)`)
      .executeTakeFirst();
    groupedItemsWithoutValue = Number(row?.count ?? 0);
  }
  return {
    isMaster: input.classifierId !== null && master === input.classifierId,
    groupsMaster: input.groupingId !== null && master === input.groupingId,
    groupedByIds,
    secondaryInScheme: Boolean(secondary),
    groupedItemsWithoutValue,
    recordsWithoutValue: input.classifierId ? await recordsWithoutClassifierValue(db, input.classifierId) : 0,
  };
}

export async function classifierUsedInScheme(db: AppDatabase, classifierId: string): Promise<boolean> {
  return Boolean(await readModels(db).selectFrom('scheme_classifiers').select('scheme_id').where('classifier_id', '=', classifierId).executeTakeFirst());
}

/** Items (by id) of the classifier that records use. Records arrive with a later issue: none yet. */
export async function itemsUsedInRecords(_db: AppDatabase, _classifierId: string, _itemIds: readonly string[]): Promise<Set<string>> {
  return new Set();
}

export interface ItemUsage {
  subBudgets: Set<string>;
  records: Set<string>;
  groupings: Set<string>;
}

/**
 * Which of the items are in use (spec 2, section 5: an item used in sub-budgets, records or
 * groupings cannot be deleted nor have its code changed). `itemIds` undefined: every item.
 */
export async function findItemsInUse(db: AppDatabase, classifier: Pick<ClassifierRow, 'id' | 'grouping_id'>, itemIds?: readonly string[]): Promise<ItemUsage> {
  const ids = itemIds ? [...itemIds] : null;
  const codes = await sql<{ id: string; code: string }>`
    select id, code from read.classifier_items where classifier_id = ${classifier.id}::uuid ${ids ? sql`and id = any(${ids}::uuid[])` : sql``}`.execute(db);
  const byCode = new Map(codes.rows.map((row) => [row.code, row.id]));
  const subBudgets = new Set<string>();
  if (codes.rows.length > 0) {
    const used = await sql<{ code: string }>`
      select distinct code from read.sub_budget_values where classifier_id = ${classifier.id}::uuid and code = any(${codes.rows.map((row) => row.code)}::text[])`.execute(db);
    for (const row of used.rows) {
      const id = byCode.get(row.code);
      if (id) subBudgets.add(id);
    }
  }
  const groupings = new Set<string>();
  if (classifier.grouping_id && codes.rows.length > 0) {
    const referenced = await sql<{ item_id: string }>`
      select distinct ref->>'itemId' as item_id
      from read.classifier_items i, jsonb_array_elements(i.grouped_by) ref
      where i.classifier_id = ${classifier.grouping_id}::uuid and ref->>'classifierId' = ${classifier.id}
        ${ids ? sql`and ref->>'itemId' = any(${ids}::text[])` : sql``}`.execute(db);
    for (const row of referenced.rows) groupings.add(row.item_id);
  }
  const records = await itemsUsedInRecords(
    db,
    classifier.id,
    codes.rows.map((row) => row.id),
  );
  return { subBudgets, records, groupings };
}

export function usedIds(usage: ItemUsage): string[] {
  return [...new Set([...usage.subBudgets, ...usage.records, ...usage.groupings])];
}

/** Items of the given classifiers in the order added, grouping references expanded to id, code and sign. */
export async function listItems(db: AppDatabase, classifiers: Pick<ClassifierRow, 'id' | 'grouping_id'>[], includeMeta: boolean): Promise<ClassifierItem[]> {
  if (classifiers.length === 0) return [];
  const rows = await readModels(db)
    .selectFrom('classifier_items')
    .select(['id', 'classifier_id', 'code', 'name', 'description', 'sign', 'unselectable', 'grouped_by'])
    .where(
      'classifier_id',
      'in',
      classifiers.map((classifier) => classifier.id),
    )
    .orderBy('classifier_id')
    .orderBy('seq')
    .execute();
  const referencedClassifiers = new Set<string>();
  for (const row of rows) for (const ref of row.grouped_by) referencedClassifiers.add(ref.classifierId);
  const referenced = new Map<string, { code: string; sign: number | null }>();
  if (referencedClassifiers.size > 0) {
    const items = await readModels(db)
      .selectFrom('classifier_items')
      .select(['id', 'code', 'sign'])
      .where('classifier_id', 'in', [...referencedClassifiers])
      .execute();
    for (const item of items) referenced.set(item.id, { code: item.code, sign: item.sign });
  }
  const usage = new Map<string, ItemUsage>();
  if (includeMeta) for (const classifier of classifiers) usage.set(classifier.id, await findItemsInUse(db, classifier));
  return rows.map((row) => {
    const used = usage.get(row.classifier_id);
    return {
      id: row.id,
      classifierId: row.classifier_id,
      code: row.code,
      name: row.name,
      description: row.description,
      sign: row.sign,
      unselectable: row.unselectable,
      groupedBy: row.grouped_by.map((ref) => ({ classifierId: ref.classifierId, id: ref.itemId, code: referenced.get(ref.itemId)?.code ?? '', sign: referenced.get(ref.itemId)?.sign ?? null })),
      ...(used ? { isInUseSubBudgets: used.subBudgets.has(row.id), isInUseRecords: used.records.has(row.id), isInUseGroupings: used.groupings.has(row.id) } : {}),
    };
  });
}

/** Another live classifier of the document already has the field name (case-insensitive). */
export async function fieldNameTaken(db: AppDatabase, documentId: string, fieldName: string, classifierId: string): Promise<boolean> {
  const row = await readModels(db)
    .selectFrom('classifiers')
    .select('id')
    .where('document_id', '=', documentId)
    .where((eb) => eb(eb.fn('lower', ['field_name']), '=', fieldName.toLowerCase()))
    .where('id', '!=', classifierId)
    .executeTakeFirst();
  return Boolean(row);
}
