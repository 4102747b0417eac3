import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, string, string>;

/** Live documents (budget periods) of every organisation; a deleted one's row is removed. */
export interface DocumentsTable {
  id: string;
  organization_id: string;
  name: string;
  description: string;
  period_year: number;
  period_month: number;
  /** Years, 1 to 5. */
  period_duration: number;
  master_classifier_id: string | null;
  record_amount_key: string;
  allow_commenting_with_read_permissions: boolean;
  resource_status_id: string | null;
  /** Documents list highest first; order values count down from the list's length. */
  sort_order: number;
  /** Records in the document's budgets (counted from the record events; see budget_record_counts). */
  records_count: number;
  created_at: Timestamp;
}

/** Records per budget, so a deleted budget's records leave its document's count. */
export interface BudgetRecordCountsTable {
  budget_id: string;
  document_id: string;
  records: number;
}

export interface DocumentsReadModel {
  documents: DocumentsTable;
  budget_record_counts: BudgetRecordCountsTable;
}
