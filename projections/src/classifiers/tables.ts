import type { ColumnType } from 'kysely';

type Json<T> = ColumnType<T, string, string>;

/** Live classifiers of every document; a deleted one's row is removed. */
export interface ClassifiersTable {
  id: string;
  document_id: string;
  organization_id: string;
  name: string;
  item_name: string;
  field_name: string;
  description: string;
  required: boolean;
  item_can_change_sign: boolean;
  is_primary: boolean;
  /** The classifier whose items this one groups; null for a non-grouping classifier. */
  grouping_id: string | null;
  primary_grouped_by_id: string | null;
  display_order: number;
  display_mode: string;
  code_type: string;
  type_regex: string;
  regex_flag: string;
  min_length: number;
  max_length: number;
  hierarchical: boolean;
  ranking: number;
}

/** Items of every live classifier. `seq` keeps the order they were added in. */
export interface ClassifierItemsTable {
  id: string;
  classifier_id: string;
  document_id: string;
  code: string;
  name: string;
  description: string;
  sign: number | null;
  unselectable: boolean;
  /** [{classifierId, itemId}] references to items of grouping classifiers. */
  grouped_by: Json<{ classifierId: string; itemId: string }[]>;
  seq: ColumnType<string, never, never>;
}

export interface ClassifiersReadModel {
  classifiers: ClassifiersTable;
  classifier_items: ClassifierItemsTable;
}
