import type { SumComponentFact } from '@eelarve/domain';
import type { BudgetsTable } from '@eelarve/projections/budgets/tables';
import { type Budget, type BudgetAdminView, type BudgetHierarchyNode, DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { type Selectable, sql } from 'kysely';
import { readModels } from '../../infrastructure/database';
import type { AuthContext } from '../../types';
import { type AccessOptions, assertResourceAccess, canAccessEach, inOrganization, type ResourceAction, type ResourceRef } from '../permissions/authorize';
import { isPlatformAdmin } from '../permissions/authorize';

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
  return (await permissionsOfEach(app, auth, [row]))[0] ?? { read: false, update: false };
}

/** Read and update permission of each budget of a list, the baseline decided once per organisation. */
export async function permissionsOfEach(app: FastifyInstance, auth: AuthContext, rows: readonly BudgetRow[]): Promise<{ read: boolean; update: boolean }[]> {
  const resources = rows.map(budgetRef);
  const [read, update] = await Promise.all([canAccessEach(app, auth, resources, 'read'), canAccessEach(app, auth, resources, 'update')]);
  return rows.map((_, index) => ({ read: read[index] ?? false, update: update[index] ?? false }));
}

/** What a budget holds of the schemes (spec 2, section 3): its pinned sub-budgets, and for a common budget the document's schemes. */
export interface BudgetStructure {
  pinnedSubBudgetIds: string[];
  schemaIds: string[];
}

export async function budgetStructures(app: FastifyInstance, rows: readonly BudgetRow[]): Promise<Map<string, BudgetStructure>> {
  const structures = new Map<string, BudgetStructure>(rows.map((row) => [row.id, { pinnedSubBudgetIds: [], schemaIds: [] }]));
  if (rows.length === 0) return structures;
  const db = readModels(app.db);
  const commonDocuments = [...new Set(rows.filter((row) => row.type === 'COMMON').map((row) => row.document_id))];
  const [pins, schemes] = await Promise.all([
    db.selectFrom('sub_budget_pins').select(['budget_id', 'sub_budget_id']).where('budget_id', 'in', [...structures.keys()]).orderBy('sub_budget_id').execute(),
    commonDocuments.length > 0
      ? db.selectFrom('schemes').select(['id', 'document_id']).where('document_id', 'in', commonDocuments).orderBy('display_order').orderBy('name').execute()
      : Promise.resolve([]),
  ]);
  for (const pin of pins) structures.get(pin.budget_id)?.pinnedSubBudgetIds.push(pin.sub_budget_id);
  for (const row of rows) {
    if (row.type === 'COMMON') (structures.get(row.id) as BudgetStructure).schemaIds = schemes.filter((scheme) => scheme.document_id === row.document_id).map((scheme) => scheme.id);
  }
  return structures;
}

/** What a sum budget's checks need to know about the document's budgets the caller can read. */
export async function componentFacts(app: FastifyInstance, auth: AuthContext, rows: readonly BudgetRow[]): Promise<SumComponentFact[]> {
  const readable = await canAccessEach(app, auth, rows.map(budgetRef), 'read');
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
  const permissions = await permissionsOfEach(app, auth, rows);
  const readable = rows.filter((_, index) => permissions[index]?.read);
  const structures = await budgetStructures(app, readable);
  return rows.flatMap((row, index) => {
    const granted = permissions[index];
    if (!granted?.read) return [];
    return [toBudget(app, auth, row, granted, structures.get(row.id) as BudgetStructure, includeMeta ? infoOf(row, names) : undefined)];
  });
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
  const permissions = await permissionsOfEach(app, auth, rows);
  return rows.flatMap((row, index) => {
    const granted = permissions[index];
    if (!granted?.read) return [];
    return [{ id: row.id, name: row.name, type: row.type, order: row.sort_order, childrenIds: row.sum_budget_component_ids, descendantIds: descendants(row.id), permissions: granted }];
  });
}

/** The live document (organisation and master classifier), or null. */
export async function findDocumentRow(app: FastifyInstance, documentId: string) {
  return readModels(app.db).selectFrom('documents').select(['id', 'organization_id', 'master_classifier_id', 'name']).where('id', '=', documentId).executeTakeFirst();
}
