import type { SchemeListRow, SubBudgetRow } from '@eelarve/projections/schemes/queries';
import type { Scheme, SubBudget } from '@eelarve/shared';

/** A scheme as the API answers it. */
export const toScheme = (row: SchemeListRow): Scheme => ({
  id: row.id,
  documentId: row.document_id,
  organizationId: row.organization_id,
  name: row.name,
  fieldName: row.field_name,
  description: row.description,
  displayOrder: row.display_order,
  classifierList: row.classifier_list,
  subBudgetsCount: row.sub_budgets_count,
});

/**
 * A sub-budget as the API answers it; seen from a budget (`budgetId`), `pinned` is that budget's.
 * Records, attachments and comments arrive with later issues: none yet.
 */
export function toSubBudget(
  row: SubBudgetRow,
  view: {
    budgetId: string | null;
    pinned: ReadonlySet<string>;
    recordsCount: ReadonlyMap<string, number>;
    /** Seen from a budget: whether the caller may update each sub-budget there. */
    updatable?: (subBudgetId: string) => boolean;
  },
): SubBudget {
  const recordsCount = view.recordsCount.get(row.id) ?? 0;
  return {
    id: row.id,
    name: row.name,
    schemaId: row.scheme_id,
    documentId: row.document_id,
    budgetId: view.budgetId,
    classifiers: row.classifiers,
    pinned: view.pinned.has(row.id),
    hasRecords: recordsCount > 0,
    recordsCount,
    attachmentsCount: 0,
    hasComments: false,
    ...(view.updatable ? { permissions: { read: true, update: view.updatable(row.id) } } : {}),
  };
}
