import type { SumComponentFact } from '@eelarve/domain';
import { type BudgetRow, findBudget } from '@eelarve/projections/budgets/queries';
import { findDocument } from '@eelarve/projections/documents/queries';
import { DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import type { AuthContext } from '../../types';
import {
  type AccessOptions,
  assertResourceAccess,
  inOrganization,
  listAccess,
  type ResourceAccess,
  type ResourceAction,
  type ResourceRef,
} from '../permissions/authorize';

/** What the budgets feature asks the authorisation module (permissions/authorize.ts) about budgets. */

export type BudgetPermissions = ResourceAccess;

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

/** What the caller may do with each budget of a list (budgets of one or more documents of one organisation). */
export async function permissionsOfEach(app: FastifyInstance, auth: AuthContext, rows: readonly BudgetRow[]): Promise<BudgetPermissions[]> {
  const first = rows[0];
  if (!first) return [];
  const documentIds = [...new Set(rows.map((row) => row.document_id))];
  const documents = await Promise.all(documentIds.map((id) => findDocument(readModels(app.db), id)));
  const statusOf = new Map(documents.map((document, index) => [documentIds[index], document?.resource_status_id ?? null]));
  return listAccess(
    app,
    auth,
    first.organization_id,
    rows.map((row) => ({
      organizationId: row.organization_id,
      documentId: row.document_id,
      budgetId: row.id,
      documentStatusId: statusOf.get(row.document_id) ?? null,
      budgetStatusId: row.resource_status_id,
    })),
  );
}

/** What a sum budget's checks need to know about the document's budgets the caller can read. */
export async function componentFacts(app: FastifyInstance, auth: AuthContext, rows: readonly BudgetRow[]): Promise<SumComponentFact[]> {
  const access = await permissionsOfEach(app, auth, rows);
  // Unreadable budgets stay in, marked: a cycle through one of them is still a cycle.
  return rows.map((row, index) => ({
    id: row.id,
    sumBudgetComponentIds: row.sum_budget_component_ids,
    readable: access[index]?.read ?? false,
    readDisabledByStatus: access[index]?.restrictions.includes('METADATA_READ_DISABLED') ?? false,
  }));
}
