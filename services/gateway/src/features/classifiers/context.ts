import type { ClassifierContext } from '@eelarve/domain';
import { classifierContext as readClassifierContext } from '@eelarve/projections/classifiers/queries';
import { DomainError } from '@eelarve/shared';
import { type AppDatabase, readModels } from '../../infrastructure/database';

/**
 * The facts the classifier rules need from other aggregates (ClassifierContext); a document that
 * went away meanwhile answers 404, as any unknown document does.
 */
export async function classifierContext(
  db: AppDatabase,
  input: { classifierId: string | null; documentId: string; groupingId: string | null },
): Promise<ClassifierContext> {
  const context = await readClassifierContext(readModels(db), input);
  if (!context) throw new DomainError('OBJECT_NOT_FOUND', 'document not found');
  return context;
}
