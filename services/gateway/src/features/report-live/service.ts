import { findBudget } from '@eelarve/projections/budgets/queries';
import { DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import type { AuthContext } from '../../types';
import { assertResourceAccess, inOrganization } from '../permissions/authorize';

/** What a change stream watches: the report's budget, and a sum budget's components whose records its report counts. */
export interface WatchedReport {
  documentId: string;
  budgetIds: string[];
}

/** Who may follow a report's changes: whoever may read the report (features/report/service.ts, same checks and codes). */
export function reportLiveService(app: FastifyInstance) {
  const read = readModels(app.db);
  return {
    async watched(auth: AuthContext, budgetId: string): Promise<WatchedReport> {
      const budget = await findBudget(read, budgetId);
      if (!budget || !inOrganization(auth, budget.organization_id)) throw new DomainError('BUDGET_NOT_FOUND');
      await assertResourceAccess(app, auth, { organizationId: budget.organization_id, documentId: budget.document_id, budgetId: budget.id }, 'read');
      return { documentId: budget.document_id, budgetIds: [budget.id, ...(budget.sum_budget_component_ids ?? [])] };
    },
  };
}
