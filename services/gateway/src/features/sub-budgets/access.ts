import { findBudgetRef, findSubBudget, type SubBudgetRow } from '@eelarve/projections/schemes/queries';
import { DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import type { AuthContext } from '../../types';
import { assertResourceAccess, inOrganization, type ResourceAction } from '../permissions/authorize';
import { assertAccessOr, SCHEME_EDITORS, schemeInPath } from '../schemes/access';

/** A COMMON budget in the path (only those hold sub-budgets), after the access check. */
export async function budgetInPath(app: FastifyInstance, auth: AuthContext, budgetId: string, action: ResourceAction) {
  const budget = await findBudgetRef(readModels(app.db), budgetId);
  // One answer for a budget that does not exist and another organisation's, as on every budget route.
  if (!budget || !inOrganization(auth, budget.organization_id)) throw new DomainError('BUDGET_NOT_FOUND');
  await assertResourceAccess(app, auth, { organizationId: budget.organization_id, documentId: budget.document_id, budgetId }, action);
  if (budget.type !== 'COMMON') throw new DomainError('OBJECT_NOT_FOUND', 'only common budgets hold sub-budgets');
  return budget;
}

/** A sub-budget in the path, after the access check on its document; another organisation's is "not found". */
export async function subBudgetInPath(app: FastifyInstance, auth: AuthContext, subBudgetId: string, action: ResourceAction): Promise<SubBudgetRow> {
  const subBudget = await findSubBudget(readModels(app.db), subBudgetId);
  if (!subBudget) throw new DomainError('SUB_BUDGET_NOT_FOUND');
  // A sub-budget in a scheme is the document's (scheme settings); seen from a budget it is addressed with the budget.
  const resource = { organizationId: subBudget.organization_id, documentId: subBudget.document_id };
  await assertAccessOr('SUB_BUDGET_NOT_FOUND', app, auth, resource, action, action === 'updateSettings' ? SCHEME_EDITORS : {});
  return subBudget;
}

/** A budget and a scheme of the same document. */
export async function budgetAndScheme(app: FastifyInstance, auth: AuthContext, budgetId: string, schemeId: string, action: ResourceAction) {
  const budget = await budgetInPath(app, auth, budgetId, action);
  const scheme = await schemeInPath(app, auth, schemeId, 'read');
  if (scheme.document_id !== budget.document_id) throw new DomainError('SCHEME_NOT_FOUND', "the scheme is not of the budget's document");
  return { budget, scheme };
}
