import type { ColumnType } from 'kysely';

type Json<T> = ColumnType<T, string, string>;
/** numeric columns come back from pg as text: never a JS number (amounts are exact). */
type Numeric = ColumnType<string, string, string>;
type Timestamp = ColumnType<Date, string, string>;

/**
 * Live records (budget lines) of every budget: one row per record, its values as they stand.
 * A deleted record leaves the table (its origin moves to record_tombstones).
 */
export interface RecordsTable {
  id: string;
  budget_id: string;
  document_id: string;
  organization_id: string;
  name: string;
  amount: Numeric;
  /** One amount per month of the document period, or null without a split; numeric[] without a scale, so each reads back as written (canonical). */
  months: ColumnType<string[] | null, string[] | null, string[] | null>;
  /** Classifier id → item code. */
  classifiers: Json<Record<string, string>>;
  promoted: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
  updated_by_user_id: string | null;
  updated_by_occupation_id: string | null;
  /** The event that made the record: its own stream's RecordCreated, or the record-import-<id> chunk. */
  origin_stream: string;
  origin_revision: ColumnType<string, string | bigint, string | bigint>;
  import_id: string | null;
  /** The record as the API lists it, without `user_name` (see listJson in projector.ts). */
  list_json: string;
}

/**
 * Where a deleted record was born, so its history and a revert of its deletion can still find an
 * imported record's chunk row; gone with its budget.
 */
export interface RecordTombstonesTable {
  id: string;
  budget_id: string;
  document_id: string;
  organization_id: string;
  created_at: Timestamp;
  origin_stream: string;
  origin_revision: ColumnType<string, string | bigint, string | bigint>;
  import_id: string | null;
}

/** Records of a budget per combination of classifier values (kept by triggers on `records`). */
export interface RecordCombinationsTable {
  budget_id: string;
  document_id: string;
  classifiers: Json<Record<string, string>>;
  records: number;
}

export interface RecordsReadModel {
  records: RecordsTable;
  record_tombstones: RecordTombstonesTable;
  record_combinations: RecordCombinationsTable;
}
