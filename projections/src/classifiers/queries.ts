import type { ClassifierContext, GroupingContext } from '@eelarve/domain';
import { type Selectable, sql } from 'kysely';
import type { ReadDatabase } from '../read-models';
import type { ClassifierItemsTable, ClassifiersTable } from './tables';

/** A row of the classifiers read model, as queries return it (the one definition: tables.ts). */
export type ClassifierRow = Selectable<ClassifiersTable>;
export type ClassifierItemRow = Selectable<ClassifierItemsTable>;

/** A classifier of a list, with what the classifiers tab shows beside its own columns. */
export type ClassifierListRow = ClassifierRow & {
  /** Classifiers grouping this one (their grouping_id is its id), by display order. */
  grouped_by_ids: string[];
  /** A scheme uses it. */
  in_use_in_scheme: boolean;
  /** Its document's master classifier. */
  is_master: boolean;
  /** Number of items, when asked for (includeItemCounts). */
  items_count: number | null;
};

/** An item's reference to an item of a grouping classifier, with that item's code and sign. */
export interface ItemReference {
  classifierId: string;
  itemId: string;
  code: string;
  sign: number | null;
}

/** Which parts of the product use an item (spec 2, section 5). */
export interface ItemUsageFlags {
  subBudgets: boolean;
  records: boolean;
  groupings: boolean;
}

export type ClassifierItemListRow = Omit<ClassifierItemRow, 'seq' | 'document_id'> & {
  references: ItemReference[];
  /** Only when asked for (includeUsage). */
  usage: ItemUsageFlags | null;
};

/** Items (by id) of a classifier in use, per kind of use. */
export interface ItemUsage {
  subBudgets: Set<string>;
  records: Set<string>;
  groupings: Set<string>;
}

/** No id matches this: an `in` list is never empty. */
const NO_ID = '00000000-0000-0000-0000-000000000000';

export function findClassifier(read: ReadDatabase, classifierId: string): Promise<ClassifierRow | undefined> {
  return read.selectFrom('classifiers').selectAll().where('id', '=', classifierId).executeTakeFirst();
}

/** Classifiers of a document or with the given ids, by display order and name, with grouped-by ids, scheme use and master flag. */
export async function listClassifiers(
  read: ReadDatabase,
  filter: { documentId?: string; ids?: readonly string[] },
  options: { includeItemCounts?: boolean } = {},
): Promise<ClassifierListRow[]> {
  let query = read.selectFrom('classifiers').selectAll();
  if (filter.documentId) query = query.where('document_id', '=', filter.documentId);
  if (filter.ids) query = query.where('id', 'in', filter.ids.length > 0 ? [...filter.ids] : [NO_ID]);
  const rows = await query.orderBy('display_order').orderBy('name').execute();
  if (rows.length === 0) return [];
  const documentIds = [...new Set(rows.map((row) => row.document_id))];
  const ids = rows.map((row) => row.id);
  const [groupings, inSchemes, masters, counts] = await Promise.all([
    read.selectFrom('classifiers').select(['id', 'grouping_id']).where('grouping_id', 'in', ids).orderBy('display_order').execute(),
    read.selectFrom('scheme_classifiers').select('classifier_id').distinct().where('classifier_id', 'in', ids).execute(),
    read.selectFrom('documents').select('master_classifier_id').where('id', 'in', documentIds).execute(),
    options.includeItemCounts
      ? read
          .selectFrom('classifier_items')
          .select(['classifier_id', (eb) => eb.fn.countAll<string>().as('count')])
          .where('classifier_id', 'in', ids)
          .groupBy('classifier_id')
          .execute()
      : Promise.resolve([]),
  ]);
  const used = new Set(inSchemes.map((row) => row.classifier_id));
  const masterIds = new Set(masters.map((row) => row.master_classifier_id));
  const countOf = new Map(counts.map((row) => [row.classifier_id, Number(row.count)]));
  return rows.map((row) => ({
    ...row,
    grouped_by_ids: groupings.filter((grouping) => grouping.grouping_id === row.id).map((grouping) => grouping.id),
    in_use_in_scheme: used.has(row.id),
    is_master: masterIds.has(row.id),
    items_count: options.includeItemCounts ? (countOf.get(row.id) ?? 0) : null,
  }));
}

/** Grouping classifiers of a classifier (those with grouping_id = it), each with its items. */
export async function groupingContexts(read: ReadDatabase, classifierId: string): Promise<GroupingContext[]> {
  const groupings = await read
    .selectFrom('classifiers')
    .select(['id', 'field_name', 'required'])
    .where('grouping_id', '=', classifierId)
    .orderBy('display_order')
    .orderBy('name')
    .execute();
  if (groupings.length === 0) return [];
  const items = await read
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

/** Records of the document without a value for the classifier (it cannot become required while there are any). */
export async function recordsWithoutClassifierValue(read: ReadDatabase, classifierId: string): Promise<number> {
  const { rows } = await sql<{ count: string }>`
    select coalesce(sum(r.records), 0) as count from read.record_combinations r
    where r.document_id = (select document_id from read.classifiers where id = ${classifierId}::uuid)
      and not (r.classifiers ? ${classifierId}::text)`.execute(read);
  return Number(rows[0]?.count ?? 0);
}

/** Items of a grouping classifier that carry no reference to the classifier (a new one: none do). */
async function groupedItemsWithoutValue(read: ReadDatabase, groupingId: string, classifierId: string | null): Promise<number> {
  const reference = JSON.stringify([{ classifierId: classifierId ?? NO_ID }]);
  const row = await read
    .selectFrom('classifier_items')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('classifier_id', '=', groupingId)
    .where(sql<boolean>`not (grouped_by @> ${reference}::jsonb)`)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/**
 * The facts the classifier rules need from other aggregates (ClassifierContext); null when the
 * document is gone.
 */
export async function classifierContext(
  read: ReadDatabase,
  input: { classifierId: string | null; documentId: string; groupingId: string | null },
): Promise<ClassifierContext | null> {
  const document = await read.selectFrom('documents').select('master_classifier_id').where('id', '=', input.documentId).executeTakeFirst();
  if (!document) return null;
  const master = document.master_classifier_id;
  const groupedByIds = input.classifierId
    ? (await read.selectFrom('classifiers').select('id').where('grouping_id', '=', input.classifierId).execute()).map((row) => row.id)
    : [];
  const secondary = input.classifierId
    ? await read
        .selectFrom('scheme_classifiers')
        .select('scheme_id')
        .where('classifier_id', '=', input.classifierId)
        .where('type', '=', 'SECONDARY')
        .executeTakeFirst()
    : undefined;
  return {
    isMaster: input.classifierId !== null && master === input.classifierId,
    groupsMaster: input.groupingId !== null && master === input.groupingId,
    groupedByIds,
    secondaryInScheme: Boolean(secondary),
    groupedItemsWithoutValue: input.groupingId ? await groupedItemsWithoutValue(read, input.groupingId, input.classifierId) : 0,
    recordsWithoutValue: input.classifierId ? await recordsWithoutClassifierValue(read, input.classifierId) : 0,
  };
}

export async function classifierUsedInScheme(read: ReadDatabase, classifierId: string): Promise<boolean> {
  return Boolean(await read.selectFrom('scheme_classifiers').select('scheme_id').where('classifier_id', '=', classifierId).executeTakeFirst());
}

/** Items (by id) of the classifier that records use, asked of the budgets' combinations of values (record_combinations). */
export async function itemsUsedInRecords(read: ReadDatabase, classifierId: string, itemIds: readonly string[]): Promise<Set<string>> {
  if (itemIds.length === 0) return new Set();
  const { rows } = await sql<{ id: string }>`
    select i.id from read.classifier_items i join read.classifiers c on c.id = i.classifier_id
    where i.classifier_id = ${classifierId}::uuid and i.id = any(${[...itemIds]}::uuid[])
      and exists (select 1 from read.record_combinations r where r.document_id = c.document_id and r.classifiers @> jsonb_build_object(${classifierId}::text, i.code))`.execute(
    read,
  );
  return new Set(rows.map((row) => row.id));
}

/**
 * Which of the items are in use (spec 2, section 5: an item used in sub-budgets, records or
 * groupings cannot be deleted nor have its code changed). `itemIds` undefined: every item.
 */
export async function findItemsInUse(
  read: ReadDatabase,
  classifier: Pick<ClassifierRow, 'id' | 'grouping_id'>,
  itemIds?: readonly string[],
): Promise<ItemUsage> {
  const ids = itemIds ? [...itemIds] : null;
  const codes = await sql<{ id: string; code: string }>`
    select id, code from read.classifier_items where classifier_id = ${classifier.id}::uuid ${ids ? sql`and id = any(${ids}::uuid[])` : sql``}`.execute(read);
  const byCode = new Map(codes.rows.map((row) => [row.code, row.id]));
  const subBudgets = new Set<string>();
  if (codes.rows.length > 0) {
    const used = await sql<{ code: string }>`
      select distinct code from read.sub_budget_values where classifier_id = ${classifier.id}::uuid and code = any(${codes.rows.map((row) => row.code)}::text[])`.execute(
      read,
    );
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
        ${ids ? sql`and ref->>'itemId' = any(${ids}::text[])` : sql``}`.execute(read);
    for (const row of referenced.rows) groupings.add(row.item_id);
  }
  const records = await itemsUsedInRecords(
    read,
    classifier.id,
    codes.rows.map((row) => row.id),
  );
  return { subBudgets, records, groupings };
}

/** Every item id in use, whatever uses it. */
export function usedIds(usage: ItemUsage): string[] {
  return [...new Set([...usage.subBudgets, ...usage.records, ...usage.groupings])];
}

/** Code and sign of the items of the given classifiers, by item id (what grouping references show). */
async function itemCodes(read: ReadDatabase, classifierIds: ReadonlySet<string>): Promise<Map<string, { code: string; sign: number | null }>> {
  const codes = new Map<string, { code: string; sign: number | null }>();
  if (classifierIds.size === 0) return codes;
  const items = await read
    .selectFrom('classifier_items')
    .select(['id', 'code', 'sign'])
    .where('classifier_id', 'in', [...classifierIds])
    .execute();
  for (const item of items) codes.set(item.id, { code: item.code, sign: item.sign });
  return codes;
}

/** Items of the given classifiers in the order added, grouping references with the referenced item's code and sign. */
export async function listItems(
  read: ReadDatabase,
  classifiers: readonly Pick<ClassifierRow, 'id' | 'grouping_id'>[],
  options: { includeUsage?: boolean } = {},
): Promise<ClassifierItemListRow[]> {
  if (classifiers.length === 0) return [];
  const rows = await read
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
  const referenced = await itemCodes(read, new Set(rows.flatMap((row) => row.grouped_by.map((ref) => ref.classifierId))));
  const usage = new Map<string, ItemUsage>();
  if (options.includeUsage) for (const classifier of classifiers) usage.set(classifier.id, await findItemsInUse(read, classifier));
  return rows.map((row) => {
    const used = usage.get(row.classifier_id);
    return {
      ...row,
      references: row.grouped_by.map((ref) => ({
        classifierId: ref.classifierId,
        itemId: ref.itemId,
        code: referenced.get(ref.itemId)?.code ?? '',
        sign: referenced.get(ref.itemId)?.sign ?? null,
      })),
      usage: used ? { subBudgets: used.subBudgets.has(row.id), records: used.records.has(row.id), groupings: used.groupings.has(row.id) } : null,
    };
  });
}

/** Other live classifiers of the document whose field name equals `fieldName`, case-insensitively. */
export async function classifiersWithFieldName(read: ReadDatabase, documentId: string, fieldName: string, exceptClassifierId: string): Promise<string[]> {
  const rows = await read
    .selectFrom('classifiers')
    .select('id')
    .where('document_id', '=', documentId)
    .where((eb) => eb(eb.fn('lower', ['field_name']), '=', fieldName.toLowerCase()))
    .where('id', '!=', exceptClassifierId)
    .execute();
  return rows.map((row) => row.id);
}
