import { periodMonthCount, type RecordFacts, type RecordSubBudgetFact } from '@eelarve/domain';
import { DomainError } from '@eelarve/shared';
import { sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';

/**
 * The facts a record command is decided on (the decider's `RecordFacts`), read from the read
 * models: the document's period and classifiers, and the sub-budget the record is edited in. A
 * classifier may have tens of thousands of items: only the items of the codes the command names
 * are read. `laterCodes` are codes still being read (the edited record's own values): the items of
 * `codes` are read at once, with the document and its classifiers in one statement (three queries
 * cost each edit's event loop two round trips more), and only those of later codes not among them
 * once they come.
 */
export async function recordFacts(
  app: FastifyInstance,
  documentId: string,
  codes: Iterable<string>,
  subBudget: RecordSubBudgetFact | null,
  laterCodes?: Promise<Iterable<string>>,
): Promise<RecordFacts> {
  const read = readModels(app.db);
  const distinct = (named: Iterable<string>) => [...new Set([...named].map((code) => code.trim()).filter((code) => code !== ''))];
  const itemsOf = async (wanted: string[]) => {
    if (wanted.length === 0) return [];
    return read
      .selectFrom('classifier_items')
      .select(['classifier_id', 'code', 'unselectable'])
      .where('document_id', '=', documentId)
      .where(sql<boolean>`code = any(${wanted}::text[])`)
      .execute();
  };
  const first = distinct([...codes, ...Object.values(subBudget?.classifiers ?? {})]);
  const later = async () => {
    const known = new Set(first);
    return itemsOf(distinct((await laterCodes) ?? []).filter((code) => !known.has(code)));
  };
  const documentFacts = read
    .selectFrom('documents as d')
    .select((eb) => [
      'd.period_duration',
      'd.master_classifier_id',
      jsonArrayFrom(eb.selectFrom('classifiers as c').select(['c.id', 'c.field_name', 'c.required']).whereRef('c.document_id', '=', 'd.id')).as('classifiers'),
      jsonArrayFrom(
        eb
          .selectFrom('classifier_items as i')
          .select(['i.classifier_id', 'i.code', 'i.unselectable'])
          .whereRef('i.document_id', '=', 'd.id')
          .where(sql<boolean>`i.code = any(${first}::text[])`),
      ).as('items'),
    ])
    .where('d.id', '=', documentId)
    .executeTakeFirst();
  const [document, laterItems] = await Promise.all([documentFacts, later()]);
  if (!document) throw new DomainError('OBJECT_NOT_FOUND', 'document not found');
  const { classifiers } = document;
  const items = [...document.items, ...laterItems];
  const facts: RecordFacts & { classifiers: Record<string, { fieldName: string; required: boolean; items: Record<string, { selectable: boolean }> }> } = {
    periodMonths: periodMonthCount(document.period_duration),
    masterClassifierId: document.master_classifier_id,
    classifiers: {},
    subBudget,
  };
  for (const row of classifiers) facts.classifiers[row.id] = { fieldName: row.field_name, required: row.required, items: {} };
  for (const row of items) {
    const classifier = facts.classifiers[row.classifier_id];
    if (classifier) classifier.items[row.code] = { selectable: !row.unselectable };
  }
  return facts;
}

/** Every code a request's classifier values name. */
export const codesOf = (...maps: (Readonly<Record<string, string | null>> | undefined)[]): string[] =>
  maps.flatMap((map) => Object.values(map ?? {}).filter((code): code is string => typeof code === 'string'));
