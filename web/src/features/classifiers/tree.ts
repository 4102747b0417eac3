import type { Classifier } from '@eelarve/shared';

/** The classifiers in tree order: each non-grouping classifier, then the grouping classifiers that group it. */
export function classifierTree(classifiers: readonly Classifier[]): { classifier: Classifier; depth: number }[] {
  const byOrder = [...classifiers].sort((a, b) => a.displayOrder - b.displayOrder || a.name.localeCompare(b.name));
  const roots = byOrder.filter((classifier) => classifier.groupingId === null || !classifiers.some((other) => other.id === classifier.groupingId));
  return roots.flatMap((root) => [
    { classifier: root, depth: 0 },
    ...byOrder.filter((child) => child.groupingId === root.id).map((child) => ({ classifier: child, depth: 1 })),
  ]);
}
