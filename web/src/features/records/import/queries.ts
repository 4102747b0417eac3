import { queryOptions } from '@tanstack/react-query';
import { fetchClassifierItems, fetchClassifiers } from '../api/requests';
import { type ImportFactsClassifier, importClassifiers } from './rows';

/**
 * What the browser checks import rows against (the shared rules): the document's classifiers with
 * their required and master flags, code rules and items. Under `records`: a records change refreshes it.
 */
export const importFactsQuery = (documentId: string) =>
  queryOptions({
    queryKey: ['records', 'import-facts', documentId],
    queryFn: async (): Promise<ImportFactsClassifier[]> => {
      const classifiers = await fetchClassifiers(documentId);
      const items = classifiers.length > 0 ? (await fetchClassifierItems(classifiers.map((classifier) => classifier.id))).list : [];
      return importClassifiers(classifiers, items);
    },
    enabled: documentId !== '',
    staleTime: 30_000,
  });
