import { classifierUsedInScheme, documentHasClassifiers, masterClassifierCandidate } from '@eelarve/projections/documents/queries';
import type { ReadDatabase } from '@eelarve/projections/read-models';
import { DomainError, fieldError } from '@eelarve/shared';

/**
 * The master classifier rules (spec 2, section 5): required on edit once the document has
 * classifiers; it must be a classifier of the document and non-grouping (INVALID_MASTER_CLASSIFIER),
 * required (MASTER_CLASSIFIER_MUST_BE_REQUIRED) and used in no scheme (MASTER_CLASSIFIER_USED_IN_SCHEME).
 *
 * `current` is the document's master classifier now. Only a new choice is checked against
 * schemes, so a document whose master is in a scheme (made before this rule, or by a concurrent
 * edit) can still be edited otherwise.
 */
export async function checkMasterClassifier(read: ReadDatabase, documentId: string, masterClassifierId: string | null, current: string | null): Promise<void> {
  if (!masterClassifierId) {
    if (await documentHasClassifiers(read, documentId))
      throw fieldError('SCHEMA_VALIDATION_ERROR', 'masterClassifierId', 'validation.required', 'master classifier required');
    return;
  }
  const classifier = await masterClassifierCandidate(read, documentId, masterClassifierId);
  if (!classifier) throw new DomainError('INVALID_MASTER_CLASSIFIER');
  if (classifier.grouping_id) throw new DomainError('INVALID_MASTER_CLASSIFIER', 'a grouping classifier cannot be the master classifier');
  if (!classifier.required) throw new DomainError('MASTER_CLASSIFIER_MUST_BE_REQUIRED');
  if (masterClassifierId !== current && (await classifierUsedInScheme(read, documentId, masterClassifierId)))
    throw new DomainError('MASTER_CLASSIFIER_USED_IN_SCHEME');
}
