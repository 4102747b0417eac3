import type { ColumnType } from 'kysely';

type Json<T> = ColumnType<T, string, string>;
/** numeric columns come back from pg as text: never a JS number (amounts are exact). */
type Numeric = ColumnType<string, string, string>;
type Timestamp = ColumnType<Date, string, string>;
type Position = ColumnType<string, string | bigint, string | bigint>;

/**
 * Every version of every record (issue 12, point 7): a version is valid from the event that made
 * it until the event that replaced or deleted it (positions in the global log and the events'
 * times); the current version has no end. The report as of a moment reads the versions valid then.
 */
export interface ReportRecordVersionsTable {
  record_id: string;
  budget_id: string;
  document_id: string;
  organization_id: string;
  name: string;
  amount: Numeric;
  months: ColumnType<string[] | null, string[] | null, string[] | null>;
  /** Classifier id → item code. */
  classifiers: Json<Record<string, string>>;
  promoted: boolean;
  valid_from_commit: Position;
  valid_from_prepare: Position;
  valid_from_at: Timestamp;
  valid_to_commit: ColumnType<string | null, string | bigint | null, string | bigint | null>;
  valid_to_prepare: ColumnType<string | null, string | bigint | null, string | bigint | null>;
  valid_to_at: ColumnType<Date | null, string | null, string | null>;
  /** Generated: valid_to_at, or valid_from_at while current (the as-of index). */
  changed_at: ColumnType<Date, never, never>;
}

/**
 * The current amounts of a budget per combination of classifier values, the compact table the
 * report aggregates: the whole amount, and the running sums of the monthly splits (element n:
 * months 1..n of the document period), so a column's months are one subtraction per row. A
 * promoted record is a report row of its own, so its amounts stay apart under its id
 * (`record_id`); every other record's share is under the nil id.
 */
export interface ReportFactsTable {
  budget_id: string;
  document_id: string;
  organization_id: string;
  classifiers: Json<Record<string, string>>;
  record_id: string;
  amount: Numeric;
  cumulative: ColumnType<string[] | null, string[] | null, string[] | null>;
  /** How many records add to the row: at 0 the row goes. */
  records: number;
}

export interface ReportReadModel {
  report_record_versions: ReportRecordVersionsTable;
  report_facts: ReportFactsTable;
}
