import { findClassifier, listClassifiers } from '@eelarve/projections/classifiers/queries';
import { findDocument } from '@eelarve/projections/documents/queries';
import { listDocumentSchemes } from '@eelarve/projections/schemes/queries';
import { DOCUMENT_COPY_PARTS, type DocumentCopyOptions, type Task } from '@eelarve/shared';
import { type AppDatabase, type ReadDatabase, readModels } from '../../infrastructure/database';
import type { TaskContext } from '../tasks/context';

/**
 * What a copy's document shows about its copy (issue 8, finding 11). The copy's state is its
 * task's state, read from the task rather than kept twice: COPYING while the task runs (retries
 * included), INCOMPLETE when it failed for good, nothing once it succeeded or for a document
 * that is not a copy.
 */
export type DocumentCopyStatus = 'COPYING' | 'INCOMPLETE';

export async function copyStatuses(app: { db: AppDatabase }, documentIds: readonly string[]): Promise<Map<string, DocumentCopyStatus>> {
  if (documentIds.length === 0) return new Map();
  const tasks = await app.db
    .selectFrom('operational.tasks')
    .select(['document_id', 'status'])
    .distinctOn('document_id')
    .where('type', '=', 'DOCUMENT_COPY')
    .where('document_id', 'in', documentIds)
    .orderBy('document_id')
    .orderBy('created_at', 'desc')
    .execute();
  const statuses = new Map<string, DocumentCopyStatus>();
  for (const task of tasks) {
    if (!task.document_id || task.status === 'SUCCESS') continue;
    statuses.set(task.document_id, task.status === 'ERROR' ? 'INCOMPLETE' : 'COPYING');
  }
  return statuses;
}

/** Each classifier of a document (by field name) with its number of items. */
async function classifierShape(read: ReadDatabase, documentId: string): Promise<Map<string, number>> {
  const rows = await listClassifiers(read, { documentId }, { includeItemCounts: true });
  return new Map(rows.map((row) => [row.field_name, row.items_count ?? 0]));
}

/** Each scheme of a document (by field name) with its number of sub-budgets. */
async function schemeShape(read: ReadDatabase, documentId: string): Promise<Map<string, number>> {
  const rows = await listDocumentSchemes(read, documentId);
  return new Map(rows.map((row) => [row.field_name, row.sub_budgets_count]));
}

const sameShape = (source: Map<string, number>, target: Map<string, number>) =>
  source.size === target.size && [...source].every(([key, count]) => target.get(key) === count);

/** The field name of a document's master classifier (null without one). */
async function masterFieldName(read: ReadDatabase, documentId: string): Promise<string | null> {
  const masterClassifierId = (await findDocument(read, documentId))?.master_classifier_id;
  return masterClassifierId ? ((await findClassifier(read, masterClassifierId))?.field_name ?? null) : null;
}

/**
 * The completion check of DOCUMENT_COPY tasks (tasks/definition.ts): every chosen part is in the
 * copy as in the source. A part this check cannot compare is never taken for done.
 */
export async function documentCopyIsComplete(context: TaskContext, task: Task): Promise<boolean> {
  const params = task.params as DocumentCopyOptions & { targetDocumentId?: string };
  const targetId = params.targetDocumentId;
  const read = readModels(context.db);
  if (!targetId || !params.sourceDocumentId || !(await findDocument(read, targetId))) return false;
  for (const part of DOCUMENT_COPY_PARTS.filter((name) => params[name])) {
    if (part === 'classifiers') {
      if (!sameShape(await classifierShape(read, params.sourceDocumentId), await classifierShape(read, targetId))) return false;
      // The copy's master classifier is the copy of the source's one (same field name), when the source has one.
      if ((await masterFieldName(read, params.sourceDocumentId)) !== (await masterFieldName(read, targetId))) return false;
    } else if (part === 'schemes') {
      if (!sameShape(await schemeShape(read, params.sourceDocumentId), await schemeShape(read, targetId))) return false;
    } else {
      return false;
    }
  }
  return true;
}
