import { DomainError, type Privilege } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { findOccupation } from '@eelarve/projections/accounts/queries';
import { findDocument } from '@eelarve/projections/documents/queries';
import { findOrganization } from '@eelarve/projections/organizations/queries';
import { readModels } from '../../infrastructure/database';
import type { AuthContext, RouteAccess } from '../../types';

/**
 * Resource permissions (spec 1, section 6; spec 2, section 6): ONE place decides whether the
 * caller may read or update an organisation, document, budget or sub-budget.
 *
 * Baseline rules, until per-occupation grants exist:
 * - IS_ADMIN (platform administrator) sees and updates everything;
 * - anyone else acts only in their session's organisation: objects of another organisation are
 *   "not found" (404 OBJECT_NOT_FOUND), never 403, so their ids are not confirmed;
 * - read: every occupation of the organisation;
 * - update: ADMIN-type occupations of the organisation, and occupations holding one of the
 *   privileges the caller names in `options.privileges` (where the spec ties editing to a
 *   privilege, e.g. SCHEMA_ADMIN for schemes, CLASSIFICATION_ADMIN for classifiers).
 *
 * EXTENSION POINT for the resource-permissions issue: register a `ResourceGrantProvider` with
 * `registerResourceGrantProvider`. It is asked only for callers inside the organisation who are not
 * platform administrators, after the baseline, and may answer `true` (granted), `false` (denied)
 * or `undefined` (no opinion: the baseline stands). The first provider with an opinion wins. That
 * is where read/update grants per occupation on organisation, document, budget and sub-budget,
 * their inheritance downward, and resource-status flags (read-disabled, write-disabled, ...) go.
 */
/**
 * The authorisation module: the one place that decides who may do what.
 * 1. Route access (`authoriseRoute`): every route declares `public`, `user`, `occupation` or the
 *    privileges it needs; the auth plugin asks here on every request.
 * 2. Organisation scope (`organizationInScope`, `visibleTo`): users, roles and occupations.
 * 3. Resource permissions (`canAccess`, `documentResource`, ...): below.
 * Another organisation's objects are always "not found" (404), never 403, so ids are not confirmed.
 */
export function authoriseRoute(access: RouteAccess, auth: AuthContext | null): void {
  if (access === 'public') return;
  if (!auth) throw new DomainError('UNAUTHORIZED');
  if (access === 'user') return;
  if (!auth.occupationId) throw new DomainError('INSUFFICIENT_PERMISSIONS', 'no occupation selected');
  if (access === 'occupation') return;
  if (access.privileges.length > 0 && !access.privileges.some((privilege) => auth.privileges.includes(privilege))) {
    throw new DomainError('INSUFFICIENT_PERMISSIONS');
  }
}

/**
 * Organisation isolation for the users, roles and occupations routes: a caller acts only in the
 * organisation of their session, unless they are a platform administrator (IS_ADMIN), who may
 * manage any organisation.
 */
export const isPlatformAdmin = (auth: AuthContext) => auth.privileges.includes('IS_ADMIN');

/** The caller may act in the organisation of the path; the answer does not reveal whether it exists. */
export async function organizationInScope(app: FastifyInstance, auth: AuthContext, organizationId: string): Promise<AuthContext> {
  // Another organisation's id is answered like one that does not exist (one answer, 404, everywhere).
  if (auth.organizationId !== organizationId && !isPlatformAdmin(auth)) throw new DomainError('ORGANIZATION_NOT_FOUND');
  const organization = await findOrganization(readModels(app.db), organizationId);
  if (!organization) throw new DomainError('ORGANIZATION_NOT_FOUND');
  return auth;
}

/**
 * An object addressed by its own id must belong to an organisation the caller may act in;
 * otherwise it is "not found", so ids of other organisations are not even confirmed.
 */
export function visibleTo(auth: AuthContext, objectOrganizationId: string | undefined): boolean {
  return objectOrganizationId !== undefined && (objectOrganizationId === auth.organizationId || isPlatformAdmin(auth));
}

/** Acting in an ADMIN occupation of the organisation: an organisation administrator. */
export async function actsAsOrganizationAdmin(app: FastifyInstance, auth: AuthContext, organizationId: string): Promise<boolean> {
  if (!auth.occupationId || auth.organizationId !== organizationId) return false;
  const occupation = await findOccupation(readModels(app.db), auth.occupationId);
  return occupation?.type === 'ADMIN';
}

/** The platform's own organisation (organisation 1): the only one whose roles may carry IS_ADMIN. */
export async function isPlatformOrganization(app: FastifyInstance, organizationId: string): Promise<boolean> {
  const row = await findOrganization(readModels(app.db), organizationId);
  return row?.is_platform === true;
}

/**
 * The privileges the caller would hand out without holding them. Nobody grants more than they
 * have (a user administrator cannot make themselves a role administrator); a platform
 * administrator holds them all.
 */
export function privilegesNotHeld(auth: AuthContext, privileges: readonly string[]): string[] {
  if (isPlatformAdmin(auth)) return [];
  return [...new Set(privileges)].filter((privilege) => !auth.privileges.includes(privilege)).sort();
}

export type ResourceAction = 'read' | 'update';

export interface ResourceRef {
  organizationId: string;
  documentId?: string;
  budgetId?: string;
  subBudgetId?: string;
}

export interface AccessOptions {
  /** Privileges that also grant update of this resource (any of them). */
  privileges?: readonly Privilege[];
}

export interface AccessQuestion {
  app: FastifyInstance;
  auth: AuthContext;
  resource: ResourceRef;
  action: ResourceAction;
  options: AccessOptions;
  /** What the baseline rules above decided. */
  baseline: boolean;
}

export type ResourceGrantProvider = (question: AccessQuestion) => Promise<boolean | undefined> | boolean | undefined;

const providers: ResourceGrantProvider[] = [];

/** Plugs per-occupation grants into every resource check; returns a function that removes it again. */
export function registerResourceGrantProvider(provider: ResourceGrantProvider): () => void {
  providers.push(provider);
  return () => {
    const index = providers.indexOf(provider);
    if (index >= 0) providers.splice(index, 1);
  };
}

/** The caller acts in the resource's organisation, or is a platform administrator. */
export function inOrganization(auth: AuthContext, organizationId: string): boolean {
  return isPlatformAdmin(auth) || (auth.organizationId !== null && auth.organizationId === organizationId);
}

async function baseline(app: FastifyInstance, auth: AuthContext, resource: ResourceRef, action: ResourceAction, options: AccessOptions): Promise<boolean> {
  if (action === 'read') return true;
  if (options.privileges?.some((privilege) => auth.privileges.includes(privilege))) return true;
  return actsAsOrganizationAdmin(app, auth, resource.organizationId);
}

/** The registered providers refine the baseline decision; the first with an opinion wins. */
async function withProviders(question: AccessQuestion): Promise<boolean> {
  for (const provider of providers) {
    const answer = await provider(question);
    if (answer !== undefined) return answer;
  }
  return question.baseline;
}

/** Whether the caller may perform `action` on the resource; false also for another organisation's objects. */
export async function canAccess(
  app: FastifyInstance,
  auth: AuthContext,
  resource: ResourceRef,
  action: ResourceAction,
  options: AccessOptions = {},
): Promise<boolean> {
  return (await canAccessEach(app, auth, [resource], action, options))[0] ?? false;
}

/**
 * `canAccess` for every resource of a list (a list screen's rows): the baseline, which depends on
 * the organisation only, is decided once per organisation instead of once per row.
 */
export async function canAccessEach(
  app: FastifyInstance,
  auth: AuthContext,
  resources: readonly ResourceRef[],
  action: ResourceAction,
  options: AccessOptions = {},
): Promise<boolean[]> {
  if (isPlatformAdmin(auth)) return resources.map(() => true);
  const baselines = new Map<string, Promise<boolean>>();
  const baselineOf = (resource: ResourceRef) => {
    let decided = baselines.get(resource.organizationId);
    if (!decided) {
      decided = baseline(app, auth, resource, action, options);
      baselines.set(resource.organizationId, decided);
    }
    return decided;
  };
  return Promise.all(
    resources.map(async (resource) => {
      if (!inOrganization(auth, resource.organizationId)) return false;
      return withProviders({ app, auth, resource, action, options, baseline: await baselineOf(resource) });
    }),
  );
}

/**
 * Throws OBJECT_NOT_FOUND (404) when the resource belongs to an organisation the caller does not
 * act in, and INSUFFICIENT_PERMISSIONS (403) when the caller may not perform `action` on it.
 */
export async function assertResourceAccess(
  app: FastifyInstance,
  auth: AuthContext,
  resource: ResourceRef,
  action: ResourceAction,
  options: AccessOptions = {},
): Promise<void> {
  if (!inOrganization(auth, resource.organizationId)) throw new DomainError('OBJECT_NOT_FOUND');
  if (!(await canAccess(app, auth, resource, action, options))) throw new DomainError('INSUFFICIENT_PERMISSIONS');
}

/** The organisation a document belongs to, or null when there is no such (live) document. */
export async function findDocumentOrganization(app: FastifyInstance, documentId: string): Promise<string | null> {
  const row = await findDocument(readModels(app.db), documentId);
  return row?.organization_id ?? null;
}

/**
 * The document as a resource, after checking the caller may perform `action` on it: a document
 * that does not exist and one of another organisation both answer 404 OBJECT_NOT_FOUND.
 */
export async function documentResource(
  app: FastifyInstance,
  auth: AuthContext,
  documentId: string,
  action: ResourceAction,
  options: AccessOptions = {},
): Promise<ResourceRef> {
  const organizationId = await findDocumentOrganization(app, documentId);
  if (!organizationId) throw new DomainError('OBJECT_NOT_FOUND', 'document not found');
  const resource = { organizationId, documentId };
  await assertResourceAccess(app, auth, resource, action, options);
  return resource;
}

/**
 * An organisation named in a path: it must exist and the caller must act in it (404 otherwise),
 * then the action is checked on the organisation itself.
 */
export async function organizationResource(
  app: FastifyInstance,
  auth: AuthContext,
  organizationId: string,
  action: ResourceAction,
  options: AccessOptions = {},
): Promise<ResourceRef> {
  if (!inOrganization(auth, organizationId)) throw new DomainError('OBJECT_NOT_FOUND');
  const organization = await findOrganization(readModels(app.db), organizationId);
  if (!organization) throw new DomainError('OBJECT_NOT_FOUND', 'organisation not found');
  const resource = { organizationId };
  await assertResourceAccess(app, auth, resource, action, options);
  return resource;
}
