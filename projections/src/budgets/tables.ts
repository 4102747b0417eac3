import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, string, string>;

/** Live budgets; a deleted budget's row is removed. */
export interface BudgetsTable {
  id: string;
  document_id: string;
  organization_id: string;
  name: string;
  description: string;
  /** COMMON, SUM_BUDGET or MONITORING; fixed after creation. */
  type: 'COMMON' | 'SUM_BUDGET' | 'MONITORING';
  tags: string[];
  resource_status_id: string | null;
  /** Higher comes first (order values count down from the list length); new budgets go last. */
  sort_order: number;
  sum_budget_component_ids: string[];
  /** The import address path of a monitoring budget (/budgets/{id}/import), null otherwise; the gateway prefixes the public URL. */
  api_url: string | null;
  /** Monitoring only, shown to platform administrators only. */
  gw_url: string | null;
  erp_url: string | null;
  sync_enabled: boolean;
  last_execution_time: ColumnType<Date | null, string | null, string | null>;
  created_at: Timestamp;
  /** The budget this one was copied from and what was chosen to copy (JSON), null when not copied. */
  copied_from: ColumnType<unknown | null, string | null, string | null>;
}

export interface BudgetsReadModel {
  budgets: BudgetsTable;
}
