import { DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';

/**
 * The master classifier rules (spec 2, section 5): required on edit once the document has
 * classifiers; it must be a classifier of the document and non-grouping (INVALID_MASTER_CLASSIFIER),
 * required (MASTER_CLASSIFIER_MUST_BE_REQUIRED) and used in no scheme (MASTER_CLASSIFIER_USED_IN_SCHEME).
 * Reads the classifiers and schemes read models (read.classifiers, read.scheme_classifiers).
 */
export async function documentHasClassifiers(app: FastifyInstance, documentId: string): Promise<boolean> {
  const row = await readModels(app.db).selectFrom('classifiers').select('id').where('document_id', '=', documentId).executeTakeFirst();
  return Boolean(row);
}

async function usedInScheme(app: FastifyInstance, documentId: string, classifierId: string): Promise<boolean> {
  const row = await readModels(app.db)
    .selectFrom('scheme_classifiers')
    .select('scheme_id')
    .where('document_id', '=', documentId)
    .where('classifier_id', '=', classifierId)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * Checks the master classifier chosen on edit; `current` is the document's master classifier now.
 * Only a new choice is checked against schemes, so a document whose master is in a scheme
 * (made before this rule, or by a concurrent edit) can still be edited otherwise.
 */
export async function checkMasterClassifier(app: FastifyInstance, documentId: string, masterClassifierId: string | null, current: string | null): Promise<void> {
  if (!masterClassifierId) {
    if (await documentHasClassifiers(app, documentId)) {
      throw new DomainError('SCHEMA_VALIDATION_ERROR', 'master classifier required', [{ path: 'body.masterClassifierId', message: 'validation.required' }]);
    }
    return;
  }
  const classifier = await readModels(app.db)
    .selectFrom('classifiers')
    .select(['required', 'grouping_id'])
    .where('id', '=', masterClassifierId)
    .where('document_id', '=', documentId)
    .executeTakeFirst();
  if (!classifier) throw new DomainError('INVALID_MASTER_CLASSIFIER');
  if (classifier.grouping_id) throw new DomainError('INVALID_MASTER_CLASSIFIER', 'a grouping classifier cannot be the master classifier');
  if (!classifier.required) throw new DomainError('MASTER_CLASSIFIER_MUST_BE_REQUIRED');
  if (masterClassifierId !== current && (await usedInScheme(app, documentId, masterClassifierId))) throw new DomainError('MASTER_CLASSIFIER_USED_IN_SCHEME');
}
