import type { ClassifierPreselections } from '@eelarve/shared';
import type { DocumentSchemesState, SchemeCommand } from './decider';
import type { NewSubBudget } from './events';

export type CopySchemesCommand = Extract<SchemeCommand, { type: 'CopySchemes' }>;

/** Keys are classifier ids of the source document; the copy uses the copied classifiers' ids. */
function translateKeys<T>(record: Record<string, T>, ids: ReadonlyMap<string, string>): Record<string, T> {
  const translated: Record<string, T> = {};
  for (const [classifierId, value] of Object.entries(record)) {
    const copied = ids.get(classifierId);
    if (copied) translated[copied] = value;
  }
  return translated;
}

/**
 * The command that copies a document's schemes with their sub-budgets and classifier
 * preselections into another document (spec 2, document copy). Needs the classifiers copied
 * first: `ids` maps their source ids to the copies' and receives the new scheme and sub-budget
 * ids. Item codes stay the same in the copy, so values and preselections carry over as they are.
 * Pins belong to budgets, which a document copy does not copy.
 */
export function schemeCopyCommand(
  source: DocumentSchemesState,
  target: { documentId: string; organizationId: string },
  ids: Map<string, string>,
  newId: () => string,
): CopySchemesCommand {
  const schemes = [...source.schemes.entries()].map(([schemeId, scheme]) => {
    const copiedSchemeId = newId();
    ids.set(schemeId, copiedSchemeId);
    const subBudgets: NewSubBudget[] = [...scheme.subBudgets.entries()].map(([subBudgetId, subBudget]) => {
      const copiedSubBudgetId = newId();
      ids.set(subBudgetId, copiedSubBudgetId);
      return {
        subBudgetId: copiedSubBudgetId,
        name: subBudget.name,
        classifiers: translateKeys(subBudget.classifiers, ids),
        preselections: translateKeys<ClassifierPreselections[string]>(subBudget.preselections, ids),
      };
    });
    return {
      schemeId: copiedSchemeId,
      name: scheme.name,
      fieldName: scheme.fieldName,
      description: scheme.description,
      displayOrder: scheme.displayOrder,
      classifierList: scheme.classifierList.flatMap((entry) => {
        const classifierId = ids.get(entry.classifierId);
        return classifierId ? [{ ...entry, classifierId }] : [];
      }),
      subBudgets,
    };
  });
  return { type: 'CopySchemes', documentId: target.documentId, organizationId: target.organizationId, schemes };
}
