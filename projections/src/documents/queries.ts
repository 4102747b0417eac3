import type { Selectable } from 'kysely';
import type { ReadDatabase } from '../read-models';
import type { DocumentsTable } from './tables';

/** A row of the documents read model, as queries return it (the one definition: tables.ts). */
export type DocumentRow = Selectable<DocumentsTable>;

/** One live document, or undefined when there is none (never made, or deleted). */
export function findDocument(read: ReadDatabase, documentId: string): Promise<DocumentRow | undefined> {
  return read.selectFrom('documents').selectAll().where('id', '=', documentId).executeTakeFirst();
}

/** An organisation's documents in their order: highest order first, then newest, then by id so ties never swap. */
export function listOrganizationDocuments(read: ReadDatabase, organizationId: string): Promise<DocumentRow[]> {
  return read
    .selectFrom('documents')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('sort_order', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** How many of the given (distinct) document ids are live documents of the organisation: a reorder names only those. */
export async function countOrganizationDocuments(read: ReadDatabase, organizationId: string, documentIds: readonly string[]): Promise<number> {
  if (documentIds.length === 0) return 0;
  const rows = await read.selectFrom('documents').select('id').where('organization_id', '=', organizationId).where('id', 'in', documentIds).execute();
  return rows.length;
}

// ---- the master classifier's rules (spec 2, section 5) ----------------------
// A document's master classifier is one of its own classifiers; these read the classifiers and
// schemes read models, which the document settings screen checks before an edit.

/** Whether the document has any classifier (then a master classifier is required). */
export async function documentHasClassifiers(read: ReadDatabase, documentId: string): Promise<boolean> {
  const row = await read.selectFrom('classifiers').select('id').where('document_id', '=', documentId).executeTakeFirst();
  return Boolean(row);
}

/** What the master-classifier rules need of a classifier of the document; undefined when the document has no such classifier. */
export function masterClassifierCandidate(
  read: ReadDatabase,
  documentId: string,
  classifierId: string,
): Promise<{ required: boolean; grouping_id: string | null } | undefined> {
  return read
    .selectFrom('classifiers')
    .select(['required', 'grouping_id'])
    .where('id', '=', classifierId)
    .where('document_id', '=', documentId)
    .executeTakeFirst();
}

/** Whether a scheme of the document uses the classifier (a master classifier must not be in one). */
export async function classifierUsedInScheme(read: ReadDatabase, documentId: string, classifierId: string): Promise<boolean> {
  const row = await read
    .selectFrom('scheme_classifiers')
    .select('scheme_id')
    .where('document_id', '=', documentId)
    .where('classifier_id', '=', classifierId)
    .executeTakeFirst();
  return Boolean(row);
}
