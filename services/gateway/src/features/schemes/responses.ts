import type { SchemeListRow } from '@eelarve/projections/schemes/queries';
import type { Scheme } from '@eelarve/shared';

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
