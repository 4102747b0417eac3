import type { AdminBudgetRow, BudgetRow, BudgetStructure } from '@eelarve/projections/budgets/queries';
import type { adminBudgetSchema, Budget, BudgetAdminView, BudgetHierarchyNode } from '@eelarve/shared';
import type { z } from 'zod';
import type { AuthContext } from '../../types';
import { isPlatformAdmin } from '../permissions/authorize';
import type { BudgetPermissions } from './access';

/** Read-model rows → the budgets API's answers. */

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The import address of a monitoring budget: the projector keeps the path, the installation's public URL goes before it. */
const importAddress = (publicUrl: string, row: BudgetRow) => (row.api_url ? `${publicUrl.replace(/\/+$/, '')}${row.api_url}` : null);

/**
 * A budget as the caller may see it: gwUrl, erpUrl and syncEnabled only for platform
 * administrators (spec 2, sections 2 and 6); the API key never (GET api/budget/{id}/api-key).
 */
export function toBudget(
  publicUrl: string,
  auth: AuthContext,
  row: BudgetRow,
  permissions: BudgetPermissions,
  structure: BudgetStructure,
  info?: string | null,
): Budget | BudgetAdminView {
  const budget: Budget = {
    id: row.id,
    documentId: row.document_id,
    organizationId: row.organization_id,
    name: row.name,
    description: row.description,
    type: row.type,
    tags: row.tags,
    resourceStatusId: row.resource_status_id,
    order: row.sort_order,
    sumBudgetComponentIds: row.sum_budget_component_ids,
    childrenIds: row.sum_budget_component_ids,
    pinnedSubBudgetIds: structure.pinnedSubBudgetIds,
    schemaIds: structure.schemaIds,
    apiUrl: importAddress(publicUrl, row),
    result: { lastExecutionTime: iso(row.last_execution_time) },
    permissions,
    ...(info !== undefined ? { info } : {}),
  };
  if (!isPlatformAdmin(auth)) return budget;
  return { ...budget, gwUrl: row.gw_url, erpUrl: row.erp_url, syncEnabled: row.sync_enabled };
}

/** The info column: component names joined by "; " for sum budgets, the last execution time for monitoring ones. */
export function infoOf(row: BudgetRow, names: ReadonlyMap<string, string>): string | null {
  if (row.type === 'SUM_BUDGET')
    return row.sum_budget_component_ids
      .map((id) => names.get(id) ?? '')
      .filter(Boolean)
      .join('; ');
  if (row.type === 'MONITORING') return iso(row.last_execution_time);
  return null;
}

/** Every budget a budget adds up, directly or through nested sum budgets. */
function descendantsIn(byId: ReadonlyMap<string, BudgetRow>, id: string): string[] {
  const seen = new Set<string>();
  const pending = [...(byId.get(id)?.sum_budget_component_ids ?? [])];
  while (pending.length > 0) {
    const next = pending.pop() as string;
    if (seen.has(next) || next === id) continue;
    seen.add(next);
    pending.push(...(byId.get(next)?.sum_budget_component_ids ?? []));
  }
  return [...seen];
}

/** The hierarchy of the budgets the caller may read; descendants count unreadable budgets too. */
export function toHierarchy(rows: readonly BudgetRow[], permissions: readonly BudgetPermissions[]): BudgetHierarchyNode[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return rows.flatMap((row, index) => {
    const granted = permissions[index];
    if (!granted?.read) return [];
    return [
      {
        id: row.id,
        name: row.name,
        type: row.type,
        order: row.sort_order,
        childrenIds: row.sum_budget_component_ids,
        descendantIds: descendantsIn(byId, row.id),
        permissions: granted,
      },
    ];
  });
}

export function toAdminBudget(row: AdminBudgetRow): z.infer<typeof adminBudgetSchema> {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    documentId: row.document_id,
    documentName: row.document_name,
    organizationId: row.organization_id,
    syncEnabled: row.sync_enabled,
    result: { lastExecutionTime: iso(row.last_execution_time), status: null },
  };
}
