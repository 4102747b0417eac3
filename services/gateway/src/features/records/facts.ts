import { periodMonthCount, type RecordFacts, type RecordSubBudgetFact } from '@eelarve/domain';
import { findDocument } from '@eelarve/projections/documents/queries';
import { DomainError } from '@eelarve/shared';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';

/**
 * The facts a record command is decided on (the decider's `RecordFacts`), read from the read
 * models: the document's period and classifiers, and the sub-budget the record is edited in. A
 * classifier may have tens of thousands of items: only the items of the codes the command names
 * are read.
 */
export async function recordFacts(
  app: FastifyInstance,
  documentId: string,
  codes: Iterable<string> | Promise<Iterable<string>>,
  subBudget: RecordSubBudgetFact | null,
): Promise<RecordFacts> {
  const read = readModels(app.db);
  // The codes may still be read (the record being edited): the document and its classifiers do not wait for them.
  const itemsOf = async (named: Iterable<string>) => {
    const wanted = [...new Set([...named, ...Object.values(subBudget?.classifiers ?? {})].map((code) => code.trim()).filter((code) => code !== ''))];
    if (wanted.length === 0) return [];
    return read
      .selectFrom('classifier_items')
      .select(['classifier_id', 'code', 'unselectable'])
      .where('document_id', '=', documentId)
      .where(sql<boolean>`code = any(${wanted}::text[])`)
      .execute();
  };
  const [document, classifiers, items] = await Promise.all([
    findDocument(read, documentId),
    read.selectFrom('classifiers').select(['id', 'field_name', 'required']).where('document_id', '=', documentId).execute(),
    Promise.resolve(codes).then(itemsOf),
  ]);
  if (!document) throw new DomainError('OBJECT_NOT_FOUND', 'document not found');
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
