import type { SumComponentFact } from '@eelarve/domain';
import type { BudgetsTable } from '@eelarve/projections/budgets/tables';
import { type Budget, type BudgetAdminView, type BudgetHierarchyNode, DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { type Selectable, sql } from 'kysely';
import { readModels } from '../../infrastructure/database';
import type { AuthContext } from '../../types';
import { type AccessOptions, assertResourceAccess, canAccess, inOrganization, type ResourceAction, type ResourceRef } from '../permissions/authorize';
import { isPlatformAdmin } from '../users/access';

export type BudgetRow = Selectable<BudgetsTable>;

export const budgetRef = (row: BudgetRow): ResourceRef => ({ organizationId: row.organization_id, documentId: row.document_id, budgetId: row.id });

export async function findBudget(app: FastifyInstance, budgetId: string): Promise<BudgetRow | undefined> {
  return readModels(app.db).selectFrom('budgets').selectAll().where('id', '=', budgetId).executeTakeFirst();
}

/**
 * The budget of the path after checking the caller may perform `action` on it. A budget that does
 * not exist and one of another organisation both answer 404 BUDGET_NOT_FOUND.
 */
export async function budgetResource(app: FastifyInstance, auth: AuthContext, budgetId: string, action: ResourceAction, options: AccessOptions = {}): Promise<BudgetRow> {
  const row = await findBudget(app, budgetId);
  if (!row || !inOrganization(auth, row.organization_id)) throw new DomainError('BUDGET_NOT_FOUND');
  await assertResourceAccess(app, auth, budgetRef(row), action, options);
  return row;
}

/** The document's budgets in order: highest order first, then oldest. */
export async function documentBudgets(app: FastifyInstance, documentId: string): Promise<BudgetRow[]> {
  return readModels(app.db)
    .selectFrom('budgets')
    .selectAll()
    .where('document_id', '=', documentId)
    .orderBy('sort_order', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function organizationBudgets(app: FastifyInstance, organizationId: string): Promise<BudgetRow[]> {
  return readModels(app.db)
    .selectFrom('budgets')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('document_id')
    .orderBy('sort_order', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Sum budgets that add up the budget. */
export async function sumBudgetsUsing(app: FastifyInstance, budgetId: string): Promise<string[]> {
  const rows = await readModels(app.db)
    .selectFrom('budgets')
    .select('id')
    .where(sql<boolean>`${budgetId}::uuid = any(sum_budget_component_ids)`)
    .execute();
  return rows.map((row) => row.id);
}

export async function permissionsOf(app: FastifyInstance, auth: AuthContext, row: BudgetRow): Promise<{ read: boolean; update: boolean }> {
  const resource = budgetRef(row);
  const [read, update] = await Promise.all([canAccess(app, auth, resource, 'read'), canAccess(app, auth, resource, 'update')]);
  return { read, update };
}

/** What a sum budget's checks need to know about the document's budgets the caller can read. */
export async function componentFacts(app: FastifyInstance, auth: AuthContext, rows: readonly BudgetRow[]): Promise<SumComponentFact[]> {
  const readable = await Promise.all(rows.map((row) => canAccess(app, auth, budgetRef(row), 'read')));
  // Unreadable budgets stay in, marked: a cycle through one of them is still a cycle.
  // Resource statuses (read disabled) come later: the hook is readDisabledByStatus.
  return rows.map((row, index) => ({ id: row.id, sumBudgetComponentIds: row.sum_budget_component_ids, readable: readable[index], readDisabledByStatus: false }));
}

const importAddress = (app: FastifyInstance, row: BudgetRow) => (row.api_url ? `${app.config.publicUrl.replace(/\/+$/, '')}${row.api_url}` : null);
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/**
 * A budget as the caller may see it: gwUrl, erpUrl and syncEnabled only for platform
 * administrators (spec 2, sections 2 and 6); the API key never (GET api/budget/{id}/api-key).
 */
export function toBudget(
  app: FastifyInstance,
  auth: AuthContext,
  row: BudgetRow,
  permissions: { read: boolean; update: boolean },
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
    apiUrl: importAddress(app, row),
    result: { lastExecutionTime: iso(row.last_execution_time) },
    permissions,
    ...(info !== undefined ? { info } : {}),
  };
  if (!isPlatformAdmin(auth)) return budget;
  return { ...budget, gwUrl: row.gw_url, erpUrl: row.erp_url, syncEnabled: row.sync_enabled };
}

/** The info column: component names joined by "; " for sum budgets, the last execution time for monitoring ones. */
export function infoOf(row: BudgetRow, names: ReadonlyMap<string, string>): string | null {
  if (row.type === 'SUM_BUDGET') return row.sum_budget_component_ids.map((id) => names.get(id) ?? '').filter(Boolean).join('; ');
  if (row.type === 'MONITORING') return iso(row.last_execution_time);
  return null;
}

/** The budgets' list with permissions (only those the caller may read). */
export async function listBudgets(app: FastifyInstance, auth: AuthContext, rows: readonly BudgetRow[], includeMeta: boolean): Promise<(Budget | BudgetAdminView)[]> {
  const names = new Map(rows.map((row) => [row.id, row.name]));
  const withPermissions = await Promise.all(rows.map(async (row) => ({ row, permissions: await permissionsOf(app, auth, row) })));
  return withPermissions.filter(({ permissions }) => permissions.read).map(({ row, permissions }) => toBudget(app, auth, row, permissions, includeMeta ? infoOf(row, names) : undefined));
}

export async function hierarchy(app: FastifyInstance, auth: AuthContext, rows: readonly BudgetRow[]): Promise<BudgetHierarchyNode[]> {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const descendants = (id: string): string[] => {
    const seen = new Set<string>();
    const pending = [...(byId.get(id)?.sum_budget_component_ids ?? [])];
    while (pending.length > 0) {
      const next = pending.pop() as string;
      if (seen.has(next) || next === id) continue;
      seen.add(next);
      pending.push(...(byId.get(next)?.sum_budget_component_ids ?? []));
    }
    return [...seen];
  };
  const nodes = await Promise.all(
    rows.map(async (row) => ({
      id: row.id,
      name: row.name,
      type: row.type,
      order: row.sort_order,
      childrenIds: row.sum_budget_component_ids,
      descendantIds: descendants(row.id),
      permissions: await permissionsOf(app, auth, row),
    })),
  );
  return nodes.filter((node) => node.permissions.read);
}

/** The live document (organisation and master classifier), or null. */
export async function findDocumentRow(app: FastifyInstance, documentId: string) {
  return readModels(app.db).selectFrom('documents').select(['id', 'organization_id', 'master_classifier_id', 'name']).where('id', '=', documentId).executeTakeFirst();
}
