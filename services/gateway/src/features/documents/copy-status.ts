import { type DocumentEvent, documentDecider, documentStream, foldEvents } from '@eelarve/domain';
import { DOCUMENT_COPY_PARTS, type DocumentCopyOptions, type Task } from '@eelarve/shared';
import { type AppDatabase, readModels } from '../../infrastructure/database';
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
async function classifierShape(db: AppDatabase, documentId: string): Promise<Map<string, number>> {
  const rows = await readModels(db)
    .selectFrom('classifiers')
    .leftJoin('classifier_items', 'classifier_items.classifier_id', 'classifiers.id')
    .select(['classifiers.field_name as fieldName', (eb) => eb.fn.count<string>('classifier_items.id').as('items')])
    .where('classifiers.document_id', '=', documentId)
    .groupBy('classifiers.field_name')
    .execute();
  return new Map(rows.map((row) => [row.fieldName, Number(row.items)]));
}

/** Each scheme of a document (by field name) with its number of sub-budgets. */
async function schemeShape(db: AppDatabase, documentId: string): Promise<Map<string, number>> {
  const rows = await readModels(db)
    .selectFrom('schemes')
    .leftJoin('sub_budgets', 'sub_budgets.scheme_id', 'schemes.id')
    .select(['schemes.field_name as fieldName', (eb) => eb.fn.count<string>('sub_budgets.id').as('subBudgets')])
    .where('schemes.document_id', '=', documentId)
    .groupBy('schemes.field_name')
    .execute();
  return new Map(rows.map((row) => [row.fieldName, Number(row.subBudgets)]));
}

const sameShape = (source: Map<string, number>, target: Map<string, number>) =>
  source.size === target.size && [...source].every(([key, count]) => target.get(key) === count);

/** A document as its stream holds it (null unless it exists). */
async function activeDocument(context: TaskContext, documentId: string) {
  const state = foldEvents(documentDecider, (await context.store.readStream(documentStream(documentId))) as unknown as DocumentEvent[]);
  return state.status === 'active' ? state : null;
}

/** The copy's master classifier is the copy of the source's one (same field name), when the source has one. */
async function sameMasterClassifier(context: TaskContext, sourceId: string, targetId: string): Promise<boolean> {
  const fieldNameOf = async (documentId: string) => {
    const masterClassifierId = (await activeDocument(context, documentId))?.masterClassifierId;
    if (!masterClassifierId) return null;
    const row = await readModels(context.db).selectFrom('classifiers').select('field_name').where('id', '=', masterClassifierId).executeTakeFirst();
    return row?.field_name ?? null;
  };
  return (await fieldNameOf(sourceId)) === (await fieldNameOf(targetId));
}

/**
 * The completion check of DOCUMENT_COPY tasks (tasks/definition.ts): every chosen part is in the
 * copy as in the source. A part this check cannot compare is never taken for done.
 */
export async function documentCopyIsComplete(context: TaskContext, task: Task): Promise<boolean> {
  const params = task.params as DocumentCopyOptions & { targetDocumentId?: string };
  const targetId = params.targetDocumentId;
  if (!targetId || !params.sourceDocumentId || !(await activeDocument(context, targetId))) return false;
  for (const part of DOCUMENT_COPY_PARTS.filter((name) => params[name])) {
    if (part === 'classifiers') {
      if (!sameShape(await classifierShape(context.db, params.sourceDocumentId), await classifierShape(context.db, targetId))) return false;
      if (!(await sameMasterClassifier(context, params.sourceDocumentId, targetId))) return false;
    } else if (part === 'schemes') {
      if (!sameShape(await schemeShape(context.db, params.sourceDocumentId), await schemeShape(context.db, targetId))) return false;
    } else {
      return false;
    }
  }
  return true;
}
