import type { ActiveClassifier, ClassifierCommand } from './decider';
import type { ClassifierDefinition, ClassifierItemData } from './events';

/** One classifier of the source document, as its stream holds it, with its current display order. */
export interface SourceClassifier {
  classifierId: string;
  state: ActiveClassifier;
  /** The read model's order (reorders live in another stream). */
  displayOrder: number;
}

export type CopyClassifierCommand = Extract<ClassifierCommand, { type: 'CopyClassifier' }>;

/**
 * Commands that copy a document's classifiers with their items into another document (spec 2,
 * document copy). Every classifier and item gets a new id first, so the references between them
 * (grouping classifier, primary grouping, an item's grouping items) are translated before any
 * event is written and the order of the appends does not matter.
 * `ids` receives source id -> copy id for classifiers and items, for the later copy steps.
 */
export function classifierCopyCommands(
  sources: readonly SourceClassifier[],
  target: { documentId: string; organizationId: string },
  ids: Map<string, string>,
  newId: () => string,
): CopyClassifierCommand[] {
  for (const source of sources) {
    ids.set(source.classifierId, newId());
    for (const itemId of source.state.items.keys()) ids.set(itemId, newId());
  }
  const mapped = (id: string | null) => (id === null ? null : (ids.get(id) ?? null));
  return sources.map(({ classifierId, state, displayOrder }) => {
    const definition: ClassifierDefinition = {
      name: state.name,
      itemName: state.itemName,
      fieldName: state.fieldName,
      description: state.description,
      required: state.required,
      itemCanChangeSign: state.itemCanChangeSign,
      primary: state.primary,
      primaryGroupedById: mapped(state.primaryGroupedById),
      displayOrder,
      displayMode: state.displayMode,
      codeSettings: { ...state.codeSettings },
    };
    const items: ClassifierItemData[] = [...state.items.values()].map((item) => ({
      ...item,
      id: ids.get(item.id) as string,
      // A grouping item outside the copied set cannot be referenced from another document.
      groupedBy: item.groupedBy.flatMap((ref) => {
        const copiedClassifier = ids.get(ref.classifierId);
        const copiedItem = ids.get(ref.itemId);
        return copiedClassifier && copiedItem ? [{ classifierId: copiedClassifier, itemId: copiedItem }] : [];
      }),
    }));
    return {
      type: 'CopyClassifier',
      classifierId: ids.get(classifierId) as string,
      documentId: target.documentId,
      organizationId: target.organizationId,
      groupingId: mapped(state.groupingId),
      definition,
      items,
    };
  });
}
