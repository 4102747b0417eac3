import type { Classifier } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { classifierSchemesQuery, itemsQuery } from '../api/queries';
import { type ClassifierFacts, codeLengthBounds, requiredLock, signLock } from '../rules';

/**
 * The facts behind the form's locks (spec 2, sections 4 and 5): the classifier's own items (code
 * lengths, negative signs), the grouped classifier's items (do all have a value of this one?) and
 * the schemes (is this an additional classifier in one?).
 */
export function useClassifierLocks(documentId: string, classifier: Classifier | null, classifiers: readonly Classifier[], groupingId: string) {
  // Sign changes only for a classifier that groups the master classifier (spec 2, section 4).
  const effectiveGroupingId = classifier ? classifier.groupingId : groupingId || null;
  const groupsMaster = classifiers.some((other) => other.id === effectiveGroupingId && other.master);
  const ownItems = useQuery({ ...itemsQuery(classifier?.id ?? ''), enabled: classifier !== null });
  const groupedItems = useQuery({ ...itemsQuery(effectiveGroupingId ?? ''), enabled: effectiveGroupingId !== null && !(classifier?.required ?? false) });
  const schemes = useQuery({ ...classifierSchemesQuery(documentId), enabled: classifier?.isInUseSchema === true && !classifier.required });
  const facts: ClassifierFacts = {
    classifier,
    groupingId: effectiveGroupingId,
    groupsMaster,
    items: ownItems.data,
    groupedItems: groupedItems.data,
    secondaryInScheme: schemes.data?.some((scheme) =>
      scheme.classifierList.some((entry) => entry.classifierId === classifier?.id && entry.type === 'SECONDARY'),
    ),
  };
  return {
    required: requiredLock(facts),
    sign: signLock(facts),
    bounds: codeLengthBounds(ownItems.data?.map((item) => item.code) ?? []),
  };
}

export type ClassifierLocks = ReturnType<typeof useClassifierLocks>;
