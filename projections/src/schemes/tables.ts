import type { ColumnType } from 'kysely';

type Json<T> = ColumnType<T, string, string>;

/** Live schemes of every document. */
export interface SchemesTable {
  id: string;
  document_id: string;
  organization_id: string;
  name: string;
  field_name: string;
  description: string;
  display_order: number;
  /** [{ classifierId, type: MAIN | SECONDARY }] in the scheme's order. */
  classifier_list: Json<{ classifierId: string; type: 'MAIN' | 'SECONDARY' }[]>;
}

/** One row per classifier a scheme uses: the classifier rules ask "is it used in a scheme". */
export interface SchemeClassifiersTable {
  scheme_id: string;
  classifier_id: string;
  document_id: string;
  type: 'MAIN' | 'SECONDARY';
}

export interface SubBudgetsTable {
  id: string;
  scheme_id: string;
  document_id: string;
  organization_id: string;
  name: string;
  /** Classifier id → item code. */
  classifiers: Json<Record<string, string>>;
  /** Classifier id → item codes. */
  preselections: Json<Record<string, string[]>>;
}

/** One row per (sub-budget, classifier value): the item rules ask "is it used in a sub-budget". */
export interface SubBudgetValuesTable {
  sub_budget_id: string;
  classifier_id: string;
  code: string;
  document_id: string;
}

/** Sub-budgets a budget has pinned (spec 2, Sub-budgets tab of a budget). */
export interface SubBudgetPinsTable {
  budget_id: string;
  scheme_id: string;
  sub_budget_id: string;
  document_id: string;
}

export interface SchemesReadModel {
  schemes: SchemesTable;
  scheme_classifiers: SchemeClassifiersTable;
  sub_budgets: SubBudgetsTable;
  sub_budget_values: SubBudgetValuesTable;
  sub_budget_pins: SubBudgetPinsTable;
}
