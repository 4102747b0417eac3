import { type ClassifierRow, findClassifier } from '@eelarve/projections/classifiers/queries';
import { DomainError, type Privilege } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import type { AuthContext } from '../../types';
import { assertResourceAccess, findDocumentOrganization, type ResourceAction } from '../permissions/authorize';

/** Viewing classifiers and their items (route access). */
export const CLASSIFIER_VIEWERS = { privileges: ['CLASSIFICATION_VIEW', 'CLASSIFICATION_ADMIN'] as Privilege[] };
/** Editing them (route access, and what grants update of their document besides its baseline). */
export const CLASSIFIER_EDITORS = { privileges: ['CLASSIFICATION_ADMIN'] as Privilege[] };

/** The classifiers tab reads the classifiers read models: commands wait for them. */
export const CLASSIFIER_READ_MODELS = ['classifiers'] as const;

/**
 * A classifier named in a path, after checking the caller may read or update its document. An
 * unknown classifier, one of a deleted document and one of another organisation all answer 404
 * CLASSIFIER_NOT_FOUND, so ids are not confirmed.
 */
export async function classifierInPath(app: FastifyInstance, auth: AuthContext, classifierId: string, action: ResourceAction): Promise<ClassifierRow> {
  const classifier = await findClassifier(readModels(app.db), classifierId);
  // The classifiers of a deleted document are gone with it.
  if (!classifier || !(await findDocumentOrganization(app, classifier.document_id))) throw new DomainError('CLASSIFIER_NOT_FOUND');
  try {
    await assertResourceAccess(app, auth, { organizationId: classifier.organization_id, documentId: classifier.document_id }, action, CLASSIFIER_EDITORS);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'OBJECT_NOT_FOUND') throw new DomainError('CLASSIFIER_NOT_FOUND');
    throw error;
  }
  return classifier;
}
