import { type ClassifierItemListRow, type ClassifierListRow, listClassifiers as listClassifierRows } from '@eelarve/projections/classifiers/queries';
import type { Classifier, ClassifierItem, CodeTypeName, DisplayMode } from '@eelarve/shared';
import { type AppDatabase, readModels } from '../../infrastructure/database';

/** A classifier as the API answers it. */
export function toClassifier(row: ClassifierListRow): Classifier {
  return {
    id: row.id,
    documentId: row.document_id,
    name: row.name,
    itemName: row.item_name,
    fieldName: row.field_name,
    description: row.description,
    required: row.required,
    itemCanChangeSign: row.item_can_change_sign,
    primary: row.is_primary,
    groupingId: row.grouping_id,
    groupedByIds: row.grouped_by_ids,
    primaryGroupedById: row.primary_grouped_by_id,
    displayOrder: row.display_order,
    displayMode: row.display_mode as DisplayMode,
    isInUseSchema: row.in_use_in_scheme,
    master: row.is_master,
    codeSettings: {
      typeName: row.code_type as CodeTypeName,
      typeRegex: row.type_regex,
      regexFlag: row.regex_flag,
      minLength: row.min_length,
      maxLength: row.max_length,
      hierarchical: row.hierarchical,
      ranking: row.ranking,
    },
    ...(row.items_count !== null ? { itemsCount: row.items_count } : {}),
  };
}

/** An item as the API answers it: grouping references as id, code and sign; usage flags only when asked for. */
export function toClassifierItem(row: ClassifierItemListRow): ClassifierItem {
  return {
    id: row.id,
    classifierId: row.classifier_id,
    code: row.code,
    name: row.name,
    description: row.description,
    sign: row.sign,
    unselectable: row.unselectable,
    groupedBy: row.references.map((ref) => ({ classifierId: ref.classifierId, id: ref.itemId, code: ref.code, sign: ref.sign })),
    ...(row.usage ? { isInUseSubBudgets: row.usage.subBudgets, isInUseRecords: row.usage.records, isInUseGroupings: row.usage.groupings } : {}),
  };
}

/** Classifiers of a document or with the given ids, as the API answers them (`includeMeta`: with item counts). */
export async function listClassifiers(db: AppDatabase, filter: { documentId?: string; ids?: string[] }, includeMeta: boolean): Promise<Classifier[]> {
  return (await listClassifierRows(readModels(db), filter, { includeItemCounts: includeMeta })).map(toClassifier);
}
