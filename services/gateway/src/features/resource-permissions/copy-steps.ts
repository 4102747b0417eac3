import { foldEvents } from '@eelarve/domain';
import { type Flags, grantKey, inheritedFlags, resourcePermissionsDecider, resourcePermissionsStream } from '@eelarve/domain/permissions/decider';
import type { ResourceGrant, ResourcePermissionEvent } from '@eelarve/domain/permissions/events';
import { type GrantRow, grantsReaching, organizationGrant } from '@eelarve/projections/permissions/queries';
import { groupBy } from '@eelarve/shared';
import { readModels } from '../../infrastructure/database';
import { type BudgetCopyContext, registerBudgetCopyPart, transferrableSubBudgets } from '../budgets/copy';
import { type DocumentCopyContext, registerDocumentCopyStep } from '../documents/copy';
import type { TaskContext } from '../tasks/context';

/**
 * The copy parts of resource permissions (issue 10, point 3): the document copy's 'permissions'
 * step and the budget copy's 'permissions' and 'subBudgetPermissions' parts. Each gives, on the
 * copy, every occupation's explicit grants of the source, translated to the copy's ids.
 * Organisation grants are not per document, so they stay as they are. Retrying is safe: setting
 * grants an occupation already has appends nothing.
 */

interface Target {
  actor: BudgetCopyContext['actor'];
  organizationId: string;
  documentId: string;
}

/** The explicit grants given inside a document, per occupation. */
async function documentGrantsByOccupation(context: TaskContext, organizationId: string, documentId: string): Promise<Map<string, GrantRow[]>> {
  const rows = await grantsReaching(readModels(context.db), organizationId, documentId);
  return groupBy(
    rows.filter((grant) => grant.document_id === documentId),
    (grant) => grant.occupation_id,
  );
}

async function currentGrants(context: TaskContext, occupationId: string, documentId: string): Promise<ReadonlyMap<string, Flags>> {
  const events = (await context.store.readStream(resourcePermissionsStream(occupationId, documentId))) as unknown as ResourcePermissionEvent[];
  return foldEvents(resourcePermissionsDecider, events).grants;
}

/**
 * A copied grant may not be narrower than what the copy already inherits (the target document's
 * or budget's grant, or the organisation's): it is widened to it, as the grant would be read anyway.
 */
function widened(grants: readonly ResourceGrant[], existing: ReadonlyMap<string, Flags>, organization: Flags): ResourceGrant[] {
  const after = new Map(existing);
  for (const grant of grants) after.set(grantKey(grant), { read: grant.read, update: grant.update });
  return grants.map((grant) => {
    const inherited = inheritedFlags(after, grant, organization, true);
    return { ...grant, read: grant.read || inherited.read, update: grant.update || inherited.update };
  });
}

/** Gives one occupation the grants in the target document; grants it already holds change nothing. */
async function giveGrants(context: TaskContext, target: Target, occupationId: string, grants: ResourceGrant[]): Promise<void> {
  if (grants.length === 0) return;
  const organization = await organizationGrant(readModels(context.db), occupationId, target.organizationId);
  const existing = await currentGrants(context, occupationId, target.documentId);
  await context.commands.run({
    decider: resourcePermissionsDecider,
    command: {
      type: 'SetResourcePermissions',
      occupationId,
      organizationId: target.organizationId,
      documentId: target.documentId,
      grants: widened(grants, existing, organization),
      organizationGrant: organization,
    },
    actor: target.actor,
    readModels: ['permissions'],
    id: occupationId,
  });
}

const flagsOf = (row: GrantRow) => ({ read: row.read, update: row.update });

/**
 * Document copy step 'permissions': the document's own grants, and those of its budgets and
 * sub-budgets the copy holds (ids the earlier steps put in `context.ids`); a grant on something
 * the copy does not hold has nothing to go to.
 */
export async function copyDocumentPermissions(context: DocumentCopyContext): Promise<void> {
  const target: Target = { actor: context.actor, organizationId: context.organizationId, documentId: context.targetDocumentId };
  const translate = (id: string | null) => (id === null ? null : (context.ids.get(id) ?? undefined));
  const byOccupation = await documentGrantsByOccupation(context, context.organizationId, context.sourceDocumentId);
  for (const [occupationId, rows] of byOccupation) {
    const grants = rows.flatMap((row) => {
      const budgetId = translate(row.budget_id);
      const subBudgetId = translate(row.sub_budget_id);
      if (budgetId === undefined || subBudgetId === undefined) return [];
      return [{ budgetId, subBudgetId, ...flagsOf(row) }];
    });
    await giveGrants(context, target, occupationId, grants);
  }
}

const budgetTarget = (context: BudgetCopyContext): Target => ({
  actor: context.actor,
  organizationId: context.source.organization_id,
  documentId: context.documentId,
});

/** Budget copy part 'permissions': every occupation's grant on the source budget, on the new budget. */
export async function copyBudgetPermissions(context: BudgetCopyContext): Promise<void> {
  const { source, budgetId } = context;
  const byOccupation = await documentGrantsByOccupation(context, source.organization_id, source.document_id);
  for (const [occupationId, rows] of byOccupation) {
    const grants = rows
      .filter((row) => row.budget_id === source.id && row.sub_budget_id === null)
      .map((row) => ({ budgetId, subBudgetId: null, ...flagsOf(row) }));
    await giveGrants(context, budgetTarget(context), occupationId, grants);
  }
}

/**
 * Budget copy part 'subBudgetPermissions': for the chosen schemes, every occupation's grants on
 * the source budget's sub-budgets, on the new budget's matching sub-budgets (same sub-budget in
 * the same document, by name in another).
 */
export async function copySubBudgetPermissions(context: BudgetCopyContext): Promise<void> {
  const { source, budgetId, documentId, schemeIds } = context;
  if (schemeIds.length === 0) return;
  const transferrable = await transferrableSubBudgets(context, source, documentId);
  const targets = new Map(
    transferrable
      .filter((row) => row.targetSubBudgetId && schemeIds.includes(row.sourceSchemeId))
      .map((row) => [row.sourceSubBudgetId, row.targetSubBudgetId as string]),
  );
  const byOccupation = await documentGrantsByOccupation(context, source.organization_id, source.document_id);
  for (const [occupationId, rows] of byOccupation) {
    const grants = rows.flatMap((row) => {
      const subBudgetId = row.budget_id === source.id && row.sub_budget_id ? targets.get(row.sub_budget_id) : undefined;
      return subBudgetId ? [{ budgetId, subBudgetId, ...flagsOf(row) }] : [];
    });
    await giveGrants(context, budgetTarget(context), occupationId, grants);
  }
}

// Registered wherever this module is loaded: the gateway (resource-permissions routes) and the worker (its handlers).
registerDocumentCopyStep('permissions', copyDocumentPermissions);
registerBudgetCopyPart('permissions', copyBudgetPermissions);
registerBudgetCopyPart('subBudgetPermissions', copySubBudgetPermissions);
