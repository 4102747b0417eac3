import { type BudgetRow, findBudget } from '@eelarve/projections/budgets/queries';
import { findSubBudget } from '@eelarve/projections/schemes/queries';
import { DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import type { AuthContext } from '../../types';
import { assertResourceAccess, inOrganization, type ResourceRef } from '../permissions/authorize';
import { assertImportableBudget, type ImportTarget } from './facts';

/**
 * Who may import and see imports (spec 3, section 6), asked of the authorisation module:
 * - importing into a budget needs update on it, and no RESOURCE_WRITE_DISABLED (nor
 *   READ_DISABLED) in force; into a sub-budget, update on the sub-budget seen from the budget;
 * - the import's status, report and error report need read on the budget (or the sub-budget).
 * An unknown budget and another organisation's answer 404 BUDGET_NOT_FOUND alike.
 */
export type ImportAction = 'import' | 'view';

async function budgetOfPath(app: FastifyInstance, auth: AuthContext, budgetId: string): Promise<BudgetRow> {
  const budget = await findBudget(readModels(app.db), budgetId);
  if (!budget || !inOrganization(auth, budget.organization_id)) throw new DomainError('BUDGET_NOT_FOUND');
  return budget;
}

/** A sub-budget of the budget's document, held by a common budget; otherwise SUB_BUDGET_NOT_FOUND. */
async function subBudgetOfBudget(app: FastifyInstance, budget: BudgetRow, subBudgetId: string): Promise<string> {
  const subBudget = await findSubBudget(readModels(app.db), subBudgetId);
  if (!subBudget || subBudget.document_id !== budget.document_id || budget.type !== 'COMMON') throw new DomainError('SUB_BUDGET_NOT_FOUND');
  return subBudget.id;
}

/** The import's target in the path, after the access check for `action`. */
export async function importPlace(
  app: FastifyInstance,
  auth: AuthContext,
  budgetId: string,
  subBudgetId: string | null,
  action: ImportAction,
): Promise<ImportTarget> {
  const budget = await budgetOfPath(app, auth, budgetId);
  const resource: ResourceRef = { organizationId: budget.organization_id, documentId: budget.document_id, budgetId: budget.id };
  const checked = action === 'import' ? 'update' : 'read';
  if (!subBudgetId) {
    await assertResourceAccess(app, auth, resource, checked);
    if (action === 'import') assertImportableBudget(budget);
    return { budget, subBudgetId: null };
  }
  // A grant on the sub-budget alone is enough there (grants above it are inherited).
  const id = await subBudgetOfBudget(app, budget, subBudgetId);
  await assertResourceAccess(app, auth, { ...resource, subBudgetId: id }, checked);
  return { budget, subBudgetId: id };
}
