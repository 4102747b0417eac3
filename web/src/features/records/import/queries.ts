import { queryOptions } from '@tanstack/react-query';
import { isApiError } from '../../../api';
import { fetchClassifierItems, fetchClassifiers } from '../api/requests';
import { recordKeys } from '../api/queries';
import { fetchImportErrorReport, fetchImportReport } from './api';
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

/** Null for a 404: no import (or no report) to show, which the screens say in words rather than as an error. */
async function unlessNotFound<T>(request: () => Promise<T>): Promise<T | null> {
  try {
    return await request();
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

/** The budget's latest finished import; under the budget's records key, so an import's end refreshes it. */
export const importReportQuery = (budgetId: string) =>
  queryOptions({ queryKey: [...recordKeys.budget(budgetId), 'import-report'], queryFn: () => unlessNotFound(() => fetchImportReport(budgetId)) });

/** Its error rows; null once the report is gone. */
export const importErrorReportQuery = (budgetId: string) =>
  queryOptions({
    queryKey: [...recordKeys.budget(budgetId), 'import-error-report'],
    queryFn: () => unlessNotFound(() => fetchImportErrorReport(budgetId)),
    staleTime: 0,
  });
