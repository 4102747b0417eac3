import type { SumComponentFact } from '@eelarve/domain';
import { type BudgetRow, findBudget } from '@eelarve/projections/budgets/queries';
import { DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import type { AuthContext } from '../../types';
import { type AccessOptions, assertResourceAccess, canAccessEach, inOrganization, type ResourceAction, type ResourceRef } from '../permissions/authorize';

/** What the budgets feature asks the authorisation module (permissions/authorize.ts) about budgets. */

export type BudgetPermissions = { read: boolean; update: boolean };

export const budgetRef = (row: BudgetRow): ResourceRef => ({ organizationId: row.organization_id, documentId: row.document_id, budgetId: row.id });

/**
 * The budget of the path after checking the caller may perform `action` on it. A budget that does
 * not exist and one of another organisation both answer 404 BUDGET_NOT_FOUND.
 */
export async function budgetResource(
  app: FastifyInstance,
  auth: AuthContext,
  budgetId: string,
  action: ResourceAction,
  options: AccessOptions = {},
): Promise<BudgetRow> {
  const row = await findBudget(readModels(app.db), budgetId);
  if (!row || !inOrganization(auth, row.organization_id)) throw new DomainError('BUDGET_NOT_FOUND');
  await assertResourceAccess(app, auth, budgetRef(row), action, options);
  return row;
}

/** Read and update permission of each budget of a list, the baseline decided once per organisation. */
export async function permissionsOfEach(app: FastifyInstance, auth: AuthContext, rows: readonly BudgetRow[]): Promise<BudgetPermissions[]> {
  const resources = rows.map(budgetRef);
  const [read, update] = await Promise.all([canAccessEach(app, auth, resources, 'read'), canAccessEach(app, auth, resources, 'update')]);
  return rows.map((_, index) => ({ read: read[index] ?? false, update: update[index] ?? false }));
}

/** What a sum budget's checks need to know about the document's budgets the caller can read. */
export async function componentFacts(app: FastifyInstance, auth: AuthContext, rows: readonly BudgetRow[]): Promise<SumComponentFact[]> {
  const readable = await canAccessEach(app, auth, rows.map(budgetRef), 'read');
  // Unreadable budgets stay in, marked: a cycle through one of them is still a cycle.
  // Resource statuses (read disabled) come later: the hook is readDisabledByStatus.
  return rows.map((row, index) => ({
    id: row.id,
    sumBudgetComponentIds: row.sum_budget_component_ids,
    readable: readable[index],
    readDisabledByStatus: false,
  }));
}
