import type { BudgetRecord, Classifier, ClassifierItem } from '@eelarve/shared';
import type { GroupOf } from './rows';

/**
 * The grouping-classifier select of the records screen (spec 3, Records screen): the classifiers
 * that group the master classifier's items, the primary one preselected; when none groups them,
 * the master classifier itself is the one choice (the select is then disabled).
 */
export function groupingOptions(classifiers: readonly Classifier[], masterId: string | null): { options: Classifier[]; preselected: string | null } {
  const master = classifiers.find((classifier) => classifier.id === masterId);
  if (!master) return { options: [], preselected: null };
  const grouping = classifiers.filter((classifier) => master.groupedByIds.includes(classifier.id)).sort((a, b) => a.displayOrder - b.displayOrder);
  const options = grouping.length > 0 ? grouping : [master];
  const primary = options.find((classifier) => classifier.id === master.primaryGroupedById) ?? options[0];
  return { options, preselected: primary?.id ?? null };
}

/** "code – name", or the code alone when the item is unknown. */
export function itemText(item: Pick<ClassifierItem, 'code' | 'name'> | undefined, code: string): string {
  return item ? `${item.code} – ${item.name}` : code;
}

/** Items by classifier id and code. */
export type ItemIndex = ReadonlyMap<string, ReadonlyMap<string, ClassifierItem>>;

export function indexItems(items: readonly ClassifierItem[]): ItemIndex {
  const index = new Map<string, Map<string, ClassifierItem>>();
  for (const item of items) {
    let byCode = index.get(item.classifierId);
    if (!byCode) {
      byCode = new Map();
      index.set(item.classifierId, byCode);
    }
    byCode.set(item.code, item);
  }
  return index;
}

/**
 * Where a record falls when grouped by `groupingId`: by its master item's value of that grouping
 * classifier (or by the master item itself). Records whose master item has no such value form the
 * group with the empty key, labelled `noneLabel`.
 */
export function groupOfRecord(masterId: string | null, groupingId: string | null, items: ItemIndex, noneLabel: string): GroupOf {
  if (!masterId || !groupingId) return () => null;
  return (record: BudgetRecord) => {
    const masterCode = record.classifiers[masterId] ?? '';
    const code =
      groupingId === masterId
        ? masterCode
        : (items
            .get(masterId)
            ?.get(masterCode)
            ?.groupedBy.find((value) => value.classifierId === groupingId)?.code ?? '');
    if (code === '') return { key: '', label: noneLabel };
    return { key: code, label: itemText(items.get(groupingId)?.get(code), code) };
  };
}
