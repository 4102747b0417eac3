import { DomainError } from '@eelarve/shared';
import type { Decider } from '../decider';
import type { ResourceGrant, ResourcePermissionEvent } from './events';

/**
 * The grants of one occupation in one document (or on its organisation): one stream per
 * occupation and document, so people editing different occupations, or one occupation in
 * different documents, never collide (docs/architecture.md, "Streams for concurrent editing").
 */
export const resourcePermissionsStream = (occupationId: string, documentId: string | null) =>
  `resource-permissions-${occupationId}-${documentId ?? 'organization'}`;

export interface Flags {
  read: boolean;
  update: boolean;
}

export const NO_GRANT: Flags = { read: false, update: false };

/** Explicit grants of the stream by resource key (`budgetId/subBudgetId`, '/' for the document or organisation). */
export interface ResourcePermissionsState {
  grants: ReadonlyMap<string, Flags>;
}

interface Scope {
  occupationId: string;
  organizationId: string;
  documentId: string | null;
}

export type ResourcePermissionsCommand =
  | (Scope & {
      type: 'SetResourcePermissions';
      grants: ResourceGrant[];
      /** The occupation's organisation-level grant (another stream); it is inherited by everything in a document. */
      organizationGrant: Flags;
    })
  | (Scope & { type: 'ReplaceResourcePermissions'; grants: ResourceGrant[]; copiedFromOccupationId: string });

export const grantKey = (grant: { budgetId: string | null; subBudgetId: string | null }) => `${grant.budgetId ?? ''}/${grant.subBudgetId ?? ''}`;

const chainInvalid = (message: string) => new DomainError('PERMISSIONS_CHAIN_INVALID', message);

/** Ids must form a chain: a sub-budget only under a budget, and nothing below the organisation stream. */
function assertChain(documentId: string | null, grant: ResourceGrant): void {
  if (grant.subBudgetId && !grant.budgetId) throw chainInvalid('a sub-budget grant names its budget');
  if (!documentId && (grant.budgetId || grant.subBudgetId)) throw chainInvalid('a budget grant names its document');
  if (grant.update && !grant.read) throw chainInvalid('update implies read');
}

/** Keys of the grants a resource inherits from, within the stream: the document above a budget, and the budget above a sub-budget. */
function ancestorKeys(grant: ResourceGrant): string[] {
  if (grant.subBudgetId) return ['/', `${grant.budgetId}/`];
  if (grant.budgetId) return ['/'];
  return [];
}

/** What a resource inherits: the organisation grant (for documents) and the grants above it in the document. */
export function inheritedFlags(grants: ReadonlyMap<string, Flags>, grant: ResourceGrant, organizationGrant: Flags, inDocument: boolean): Flags {
  const above = [...(inDocument ? [organizationGrant] : []), ...ancestorKeys(grant).map((key) => grants.get(key) ?? NO_GRANT)];
  return { read: above.some((flags) => flags.read || flags.update), update: above.some((flags) => flags.update) };
}

const sameFlags = (a: Flags, b: Flags) => a.read === b.read && a.update === b.update;

function withGrants(state: ResourcePermissionsState, grants: readonly ResourceGrant[]): Map<string, Flags> {
  const next = new Map(state.grants);
  for (const grant of grants) {
    if (grant.read || grant.update) next.set(grantKey(grant), { read: grant.read, update: grant.update });
    else next.delete(grantKey(grant));
  }
  return next;
}

function decideSet(
  command: Extract<ResourcePermissionsCommand, { type: 'SetResourcePermissions' }>,
  state: ResourcePermissionsState,
): ResourcePermissionEvent[] {
  const { occupationId, organizationId, documentId, organizationGrant } = command;
  const requested = new Map(command.grants.map((grant) => [grantKey(grant), grant]));
  for (const grant of requested.values()) assertChain(documentId, grant);
  const after = withGrants(state, [...requested.values()]);
  // A grant given above cannot be taken away (or narrowed) below where it was given.
  for (const grant of requested.values()) {
    const inherited = inheritedFlags(after, grant, organizationGrant, documentId !== null);
    if ((inherited.read && !grant.read) || (inherited.update && !grant.update)) {
      throw chainInvalid('an inherited grant cannot be removed below where it was given');
    }
  }
  const changed = [...requested.values()].filter((grant) => !sameFlags(state.grants.get(grantKey(grant)) ?? NO_GRANT, grant));
  if (changed.length === 0) return [];
  return [{ type: 'ResourcePermissionsSet', data: { occupationId, organizationId, documentId, grants: changed } }];
}

function decideReplace(
  command: Extract<ResourcePermissionsCommand, { type: 'ReplaceResourcePermissions' }>,
  state: ResourcePermissionsState,
): ResourcePermissionEvent[] {
  const { occupationId, organizationId, documentId, copiedFromOccupationId } = command;
  const grants = command.grants.filter((grant) => grant.read || grant.update);
  for (const grant of grants) assertChain(documentId, grant);
  const next = withGrants({ grants: new Map() }, grants);
  const unchanged = next.size === state.grants.size && [...next].every(([key, flags]) => sameFlags(state.grants.get(key) ?? NO_GRANT, flags));
  if (unchanged) return [];
  return [{ type: 'ResourcePermissionsReplaced', data: { occupationId, organizationId, documentId, grants, copiedFromOccupationId } }];
}

export const resourcePermissionsDecider: Decider<ResourcePermissionsCommand, ResourcePermissionEvent, ResourcePermissionsState> = {
  streamName: (command) => resourcePermissionsStream(command.occupationId, command.documentId),
  initialState: () => ({ grants: new Map() }),
  evolve(state, event) {
    if (event.type === 'ResourcePermissionsReplaced') return { grants: withGrants({ grants: new Map() }, event.data.grants) };
    return { grants: withGrants(state, event.data.grants) };
  },
  decide(command, state) {
    return command.type === 'SetResourcePermissions' ? decideSet(command, state) : decideReplace(command, state);
  },
};
