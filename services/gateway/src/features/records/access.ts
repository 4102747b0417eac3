import type { RecordSubBudgetFact } from '@eelarve/domain';
import { subBudgetsForFitting } from '@eelarve/projections/records/api-queries';
import {
  type BudgetRef,
  findBudgetRef,
  findScheme,
  findSubBudgetPlace,
  type SchemeRow,
  type SubBudgetPlaceRow,
  type SubBudgetRow,
} from '@eelarve/projections/schemes/queries';
import { DomainError, type Privilege } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import type { AuthContext } from '../../types';
import { allows, assertResourceAccess, inOrganization, type ResourceAccess, type ResourceRef } from '../permissions/authorize';
import { schemeClassifierIds, schemeFitter } from './fitting';

/**
 * Who may read and change records (spec 3, section 6), asked of the authorisation module:
 * - reading needs DATA_VIEW (route access) and read on the budget, or on the sub-budget seen from it;
 * - editing needs update on the sub-budget (a grant on it, or inherited from the budget, document or
 *   organisation) and no RESOURCE_WRITE_DISABLED (nor READ_DISABLED) in force;
 * - promoting needs the same and no METADATA_WRITE_DISABLED.
 * Another organisation's budget answers 404 BUDGET_NOT_FOUND, exactly as an unknown one.
 */
export const RECORD_READERS = { privileges: ['DATA_VIEW'] as Privilege[] };
/** The raw events of a record's streams: auditors (user administrators) and platform administrators. */
export const RECORD_AUDITORS = { privileges: ['USER_ADMIN', 'IS_ADMIN'] as Privilege[] };

/** The records screen's next read is the records read model: commands wait for it. */
export const RECORD_READ_MODELS = ['records'] as const;
/**
 * A record made, deleted or brought back also changes its document's and budget's counts, kept
 * by the documents read model (the documents list, the period lock): those commands wait for both.
 */
export const RECORD_COUNT_READ_MODELS = ['records', 'documents'] as const;

/** The sub-budget id that stands for "records fitting no sub-budget of the scheme" (spec 2, the -2 row). */
export const UNFIT_SUB_BUDGET = '-2';

/** A budget that holds records, as the records routes need it. */
export interface RecordsBudget {
  id: string;
  documentId: string;
  organizationId: string;
}

/** Where records are addressed: a budget, and a sub-budget of one of its document's schemes, or the unfit row of a scheme. */
export type RecordsPlace =
  | { kind: 'budget'; budget: RecordsBudget; resource: ResourceRef; access: ResourceAccess }
  | { kind: 'subBudget'; budget: RecordsBudget; subBudget: SubBudgetRow; subBudgetFact: RecordSubBudgetFact; resource: ResourceRef; access: ResourceAccess }
  | {
      kind: 'unfit';
      budget: RecordsBudget;
      scheme: SchemeRow;
      /** Whether values fall in a sub-budget of the scheme (then the record is not in this row). */
      fits: (classifiers: Readonly<Record<string, string>>) => boolean;
      resource: ResourceRef;
      access: ResourceAccess;
    };

/** What a record path asks of the place: to read its records, change them, or change their promotion (metadata). */
export type RecordAction = 'read' | 'update' | 'promote';

const budgetRefOf = (budget: RecordsBudget): ResourceRef => ({ organizationId: budget.organizationId, documentId: budget.documentId, budgetId: budget.id });

/** The budget of the path: unknown and another organisation's are one answer. A sum budget holds no records of its own. */
export async function recordsBudget(app: FastifyInstance, auth: AuthContext, budgetId: string): Promise<RecordsBudget> {
  return recordsBudgetOf(auth, await findBudgetRef(readModels(app.db), budgetId));
}

function recordsBudgetOf(auth: AuthContext, row: BudgetRef | undefined): RecordsBudget {
  if (!row || !inOrganization(auth, row.organization_id)) throw new DomainError('BUDGET_NOT_FOUND');
  if (row.type === 'SUM_BUDGET') throw new DomainError('OBJECT_NOT_FOUND', 'a sum budget holds no records of its own');
  return { id: row.id, documentId: row.document_id, organizationId: row.organization_id };
}

/** Checks `action` on the resource (its statuses given when read already); promote is an update that METADATA_WRITE_DISABLED refuses too. */
async function assertRecordAction(
  app: FastifyInstance,
  auth: AuthContext,
  resource: ResourceRef,
  action: RecordAction,
  statusIds?: readonly (string | null)[],
): Promise<ResourceAccess> {
  const access = await assertResourceAccess(app, auth, resource, action === 'read' ? 'read' : 'update', { statusIds });
  if (action === 'promote' && !allows(access, 'updateSettings')) {
    throw new DomainError('ACTION_DISALLOWED_DUE_TO_STATUS', 'the resource status disallows this (METADATA_WRITE_DISABLED)', {
      rule: 'METADATA_WRITE_DISABLED',
    });
  }
  return access;
}

/** The budget in the path, after checking `action` on the whole budget. */
export async function budgetPlace(app: FastifyInstance, auth: AuthContext, budgetId: string, action: RecordAction): Promise<RecordsPlace & { kind: 'budget' }> {
  const budget = await recordsBudget(app, auth, budgetId);
  const resource = budgetRefOf(budget);
  return { kind: 'budget', budget, resource, access: await assertRecordAction(app, auth, resource, action) };
}

/** A scheme of the budget's document (unknown, or of another document: SCHEME_NOT_FOUND). */
export async function schemeOfBudget(app: FastifyInstance, budget: RecordsBudget, schemeId: string): Promise<SchemeRow> {
  const scheme = await findScheme(readModels(app.db), schemeId);
  if (!scheme || scheme.document_id !== budget.documentId) throw new DomainError('SCHEME_NOT_FOUND');
  return scheme;
}

/**
 * The sub-budget of the path seen from its budget, after checking `action` on it: records of a
 * sub-budget are the budget's records that carry its classifier values (issue 11). `-2` with a
 * scheme is the scheme's unfit row: no sub-budget's grant reaches it, so it needs the budget's.
 */
export async function subBudgetPlace(
  app: FastifyInstance,
  auth: AuthContext,
  budgetId: string,
  subBudgetId: string,
  action: RecordAction,
  schemeId?: string,
): Promise<RecordsPlace> {
  if (subBudgetId === UNFIT_SUB_BUDGET) {
    const budget = await recordsBudget(app, auth, budgetId);
    if (!schemeId)
      throw new DomainError('SCHEMA_VALIDATION_ERROR', 'the unfit row (-2) is of a scheme: give schemaId', [
        { path: 'querystring.schemaId', message: 'validation.required' },
      ]);
    const resource = budgetRefOf(budget);
    const access = await assertRecordAction(app, auth, resource, action);
    const scheme = await schemeOfBudget(app, budget, schemeId);
    const fit = schemeFitter(schemeClassifierIds(scheme), await subBudgetsForFitting(readModels(app.db), [scheme.id]));
    return { kind: 'unfit', budget, scheme, fits: (classifiers) => fit(classifiers) !== UNFIT_SUB_BUDGET, resource, access };
  }
  // The budget with its statuses, the sub-budget and its scheme in one query; the budget's answer comes first.
  const row = await findSubBudgetPlace(readModels(app.db), budgetId, subBudgetId);
  const budget = recordsBudgetOf(auth, row);
  // recordsBudgetOf refused a missing row.
  const { document_status_id, budget_status_id, sub_budget: subBudget, scheme } = row as SubBudgetPlaceRow;
  const statusIds = [document_status_id, budget_status_id];
  if (!subBudget || subBudget.document_id !== budget.documentId) {
    // The budget's own access first: an unreadable budget does not confirm which sub-budgets exist.
    await assertRecordAction(app, auth, budgetRefOf(budget), 'read', statusIds);
    throw new DomainError('SUB_BUDGET_NOT_FOUND');
  }
  const resource = { ...budgetRefOf(budget), subBudgetId: subBudget.id };
  const access = await assertRecordAction(app, auth, resource, action, statusIds);
  const subBudgetFact = {
    id: subBudget.id,
    schemeClassifierIds: scheme ? schemeClassifierIds(scheme) : Object.keys(subBudget.classifiers),
    classifiers: subBudget.classifiers,
  };
  return { kind: 'subBudget', budget, subBudget, subBudgetFact, resource, access };
}
