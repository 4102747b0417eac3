import { queryOptions } from '@tanstack/react-query';
import { fetchClassifiers, fetchItems, fetchItemsOf, fetchSchemes } from './requests';

/** Every classifier query starts with `classifiers`: one invalidation after a change refreshes them all. */
export const classifierKeys = {
  all: ['classifiers'] as const,
  list: (documentId: string) => ['classifiers', 'list', documentId] as const,
  items: (classifierId: string) => ['classifiers', 'items', classifierId] as const,
  itemsOf: (classifierIds: readonly string[]) => ['classifiers', 'items-of', ...classifierIds] as const,
  /** The document's schemes, for the classifier form's locks (which classifiers are additional in a scheme). */
  schemes: (documentId: string) => ['classifiers', 'schemes', documentId] as const,
};

/** The document's classifiers with their meta data (item counts, use in schemes). */
export const classifierListQuery = (documentId: string) =>
  queryOptions({ queryKey: classifierKeys.list(documentId), queryFn: () => fetchClassifiers(documentId), enabled: documentId !== '' });

/** One classifier's items with where they are used. */
export const itemsQuery = (classifierId: string) => queryOptions({ queryKey: classifierKeys.items(classifierId), queryFn: () => fetchItems(classifierId) });

/** The items of several classifiers (the grouping choices of an item). */
export const itemsOfQuery = (classifierIds: readonly string[]) =>
  queryOptions({ queryKey: classifierKeys.itemsOf(classifierIds), queryFn: () => fetchItemsOf(classifierIds), enabled: classifierIds.length > 0 });

/** The document's schemes as the classifier form's locks need them; not retried (without the privilege the lock is left out). */
export const classifierSchemesQuery = (documentId: string) =>
  queryOptions({ queryKey: classifierKeys.schemes(documentId), queryFn: () => fetchSchemes(documentId), retry: false });
