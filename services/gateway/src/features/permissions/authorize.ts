import { DomainError, type Privilege, RESOURCE_STATUS_RULE_TYPES, type ResourceStatusRuleType } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { findOccupation } from '@eelarve/projections/accounts/queries';
import { findDocument, listOrganizationDocuments } from '@eelarve/projections/documents/queries';
import { findOrganization } from '@eelarve/projections/organizations/queries';
import { budgetGrant, documentGrant, effectiveFlags, grantsOn, levelGrants, subBudgetIdsGrantedOneByOne } from '@eelarve/projections/permissions/queries';
import { organizationResourceStatuses, type ResourceStatusRow } from '@eelarve/projections/resource-statuses/queries';
import type { SubBudgetUpdate } from '@eelarve/projections/schemes/queries';
import { readModels } from '../../infrastructure/database';
import type { SessionOccupation } from '../auth/sessions';
import type { AuthContext, RouteAccess } from '../../types';

/**
 * The authorisation module: the one place that decides who may do what.
 * 1. Route access (`authoriseRoute`): every route declares `public`, `user`, `occupation` or the
 *    privileges it needs; the auth plugin asks here on every request.
 * 2. Organisation scope (`organizationInScope`, `visibleTo`): users, roles and occupations.
 * 3. Resource permissions (`assertResourceAccess`, `documentResource`, `listAccess`, ...), spec 1
 *    section 6 and spec 2 section 6: platform administrators and the organisation's ADMIN
 *    occupations hold every grant; every other occupation reads its organisation and holds the read
 *    and update grants given to it on documents, budgets and sub-budgets, inherited downward (a
 *    grant below a resource makes it readable, to navigate to what was granted). The statuses of
 *    the document and the budget then refuse what their rules say, unless the caller's privileges
 *    or roles are exempt. List endpoints ask `listAccess` once per list (one grants query).
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

/**
 * What a caller wants to do with a resource. Each needs a grant (read or update) and is refused by
 * some status rules of the resource (spec 2, section 6):
 * - `see`: find it in a list or read its route; a read grant, whatever its status says.
 * - `read`: open it; refused by READ_DISABLED.
 * - `update`: change its data (records, imports, sub-budgets, budgets of a document, deletion);
 *   refused by READ_DISABLED and RESOURCE_WRITE_DISABLED.
 * - `updateSettings`: change its settings (name, classifiers, schemes, document settings);
 *   refused by METADATA_WRITE_DISABLED.
 * - `updateStatus`: move it on its approval route or set only its status; an update grant, never
 *   refused by a status (otherwise a locked budget could never be unlocked).
 */
export type ResourceAction = 'see' | 'read' | 'update' | 'updateSettings' | 'updateStatus';

const GRANT_NEEDED: Record<ResourceAction, 'read' | 'update'> = {
  see: 'read',
  read: 'read',
  update: 'update',
  updateSettings: 'update',
  updateStatus: 'update',
};

const REFUSED_BY: Record<ResourceAction, readonly ResourceStatusRuleType[]> = {
  see: [],
  read: ['READ_DISABLED'],
  update: ['READ_DISABLED', 'RESOURCE_WRITE_DISABLED'],
  updateSettings: ['METADATA_WRITE_DISABLED'],
  updateStatus: [],
};

/** Rules that hide rather than lock: a platform administrator sees every document and budget (spec 1, section 6). */
const HIDING_RULES: readonly ResourceStatusRuleType[] = ['READ_DISABLED', 'METADATA_READ_DISABLED', 'COMMENT_READ_DISABLED'];

export interface ResourceRef {
  organizationId: string;
  documentId?: string;
  budgetId?: string;
  subBudgetId?: string;
}

export interface AccessOptions {
  /** Privileges that also grant update of this resource (any of them) wherever it can be read. */
  privileges?: readonly Privilege[];
  /** The resource's statuses (its document's, then its budget's) when the caller read them with the resource: not read again. */
  statusIds?: readonly (string | null)[];
}

/**
 * The caller's effective access to one resource: the grants (own, inherited from above, or read
 * through a grant below) and the status rules in force on it for this caller (the document's and
 * the budget's statuses, minus the rules the caller's privileges or roles are exempt from).
 */
export interface ResourceAccess {
  read: boolean;
  update: boolean;
  restrictions: ResourceStatusRuleType[];
}

const NO_ACCESS: ResourceAccess = { read: false, update: false, restrictions: [] };

/** The caller acts in the resource's organisation, or is a platform administrator. */
export function inOrganization(auth: AuthContext, organizationId: string): boolean {
  return isPlatformAdmin(auth) || (auth.organizationId !== null && auth.organizationId === organizationId);
}

/** The caller's occupation, read once per request (or with the session: rememberCallerOccupation). */
const occupations = new WeakMap<AuthContext, Promise<SessionOccupation | undefined>>();
function callerOccupation(app: FastifyInstance, auth: AuthContext): Promise<SessionOccupation | undefined> {
  let found = occupations.get(auth);
  if (!found) {
    found = auth.occupationId ? findOccupation(readModels(app.db), auth.occupationId) : Promise.resolve(undefined);
    occupations.set(auth, found);
  }
  return found;
}

/** The caller's occupation as the session's query read it (auth.ts): the access checks of the request then read it no more. */
export function rememberCallerOccupation(auth: AuthContext, occupation: SessionOccupation): AuthContext {
  occupations.set(auth, Promise.resolve(occupation));
  return auth;
}

/** The organisation's statuses by id, read once per request. */
const statusCatalogues = new WeakMap<AuthContext, Map<string, Promise<Map<string, ResourceStatusRow>>>>();
function statusCatalogue(app: FastifyInstance, auth: AuthContext, organizationId: string): Promise<Map<string, ResourceStatusRow>> {
  let byOrganization = statusCatalogues.get(auth);
  if (!byOrganization) {
    byOrganization = new Map();
    statusCatalogues.set(auth, byOrganization);
  }
  let catalogue = byOrganization.get(organizationId);
  if (!catalogue) {
    catalogue = organizationResourceStatuses(readModels(app.db), organizationId).then((rows) => new Map(rows.map((row) => [row.id, row])));
    byOrganization.set(organizationId, catalogue);
  }
  return catalogue;
}

/**
 * Platform administrators, and the organisation's ADMIN-type occupations, hold every grant in it;
 * everyone else holds what was granted to their occupation.
 */
async function holdsEveryGrant(app: FastifyInstance, auth: AuthContext, organizationId: string): Promise<boolean> {
  if (isPlatformAdmin(auth)) return true;
  if (auth.organizationId !== organizationId) return false;
  return (await callerOccupation(app, auth))?.type === 'ADMIN';
}

/** The rules of the statuses in force that the caller is not exempt from (by privilege or by role). */
async function restrictionsOf(
  app: FastifyInstance,
  auth: AuthContext,
  organizationId: string,
  statusIds: readonly (string | null)[],
): Promise<ResourceStatusRuleType[]> {
  const present = statusIds.filter((id): id is string => id !== null);
  if (present.length === 0) return [];
  const [catalogue, occupation] = await Promise.all([statusCatalogue(app, auth, organizationId), callerOccupation(app, auth)]);
  const roles = new Set(occupation?.role_ids ?? []);
  const restrictions = new Set<ResourceStatusRuleType>();
  for (const statusId of present) {
    for (const rule of catalogue.get(statusId)?.rules ?? []) {
      const exempt = rule.overridePrivileges.some((privilege) => auth.privileges.includes(privilege)) || rule.overrideRoles.some((role) => roles.has(role));
      if (!exempt && !(isPlatformAdmin(auth) && HIDING_RULES.includes(rule.type))) restrictions.add(rule.type);
    }
  }
  return RESOURCE_STATUS_RULE_TYPES.filter((type) => restrictions.has(type));
}

/** The statuses a resource is under: its document's and, for a budget or sub-budget, its budget's (one query: every command asks). */
async function statusIdsOf(app: FastifyInstance, resource: ResourceRef): Promise<(string | null)[]> {
  if (!resource.documentId && !resource.budgetId) return [null, null];
  const row = await readModels(app.db)
    .selectNoFrom((eb) => [
      eb
        .selectFrom('documents')
        .select('resource_status_id')
        .where('id', '=', resource.documentId ?? null)
        .as('document_status_id'),
      eb
        .selectFrom('budgets')
        .select('resource_status_id')
        .where('id', '=', resource.budgetId ?? null)
        .as('budget_status_id'),
    ])
    .executeTakeFirstOrThrow();
  return [row.document_status_id ?? null, row.budget_status_id ?? null];
}

const holdsAny = (auth: AuthContext, privileges: readonly Privilege[] | undefined) =>
  (privileges ?? []).some((privilege) => auth.privileges.includes(privilege));

/** A resource's grants: every occupation reads its own organisation; the rest is granted per occupation. */
async function grantsOf(app: FastifyInstance, auth: AuthContext, resource: ResourceRef): Promise<{ read: boolean; update: boolean }> {
  if (!auth.occupationId) return (await holdsEveryGrant(app, auth, resource.organizationId)) ? { read: true, update: true } : { read: false, update: false };
  // Asked beside the occupation, not after it (a round trip less on every command); unused for administrators.
  const [everything, grants] = await Promise.all([
    holdsEveryGrant(app, auth, resource.organizationId),
    grantsOn(readModels(app.db), auth.occupationId, resource),
  ]);
  if (everything) return { read: true, update: true };
  return { read: grants.read || !resource.documentId, update: grants.update };
}

/** The caller's effective access to the resource (see `ResourceAccess`); nothing for another organisation's. */
export async function resourceAccess(app: FastifyInstance, auth: AuthContext, resource: ResourceRef, options: AccessOptions = {}): Promise<ResourceAccess> {
  if (!inOrganization(auth, resource.organizationId)) return NO_ACCESS;
  const [grants, statusIds] = await Promise.all([grantsOf(app, auth, resource), options.statusIds ?? statusIdsOf(app, resource)]);
  return withPrivileges(auth, { ...grants, restrictions: await restrictionsOf(app, auth, resource.organizationId, statusIds) }, options);
}

/** Privileges that grant update (SCHEMA_ADMIN for schemes, ...) do so wherever the resource is readable. */
function withPrivileges(auth: AuthContext, access: ResourceAccess, options: AccessOptions): ResourceAccess {
  return { ...access, update: access.update || (access.read && holdsAny(auth, options.privileges)) };
}

/** Whether the access allows the action: the grant it needs, and no rule in force that refuses it. */
export function allows(access: ResourceAccess, action: ResourceAction): boolean {
  return access[GRANT_NEEDED[action]] && !access.restrictions.some((rule) => REFUSED_BY[action].includes(rule));
}

/** Whether the caller may perform `action` on the resource; false also for another organisation's objects. */
export async function canAccess(
  app: FastifyInstance,
  auth: AuthContext,
  resource: ResourceRef,
  action: ResourceAction,
  options: AccessOptions = {},
): Promise<boolean> {
  return allows(await resourceAccess(app, auth, resource, options), action);
}

/** A document or budget row as list access needs it. */
export interface ListedResource {
  organizationId: string;
  documentId: string;
  budgetId?: string;
  documentStatusId: string | null;
  budgetStatusId?: string | null;
}

/**
 * The caller's access to every row of a list of documents (or of one document's budgets): one
 * grants query for the whole list and the organisation's statuses, never a question per row.
 */
export async function listAccess(
  app: FastifyInstance,
  auth: AuthContext,
  organizationId: string,
  rows: readonly ListedResource[],
  options: AccessOptions = {},
): Promise<ResourceAccess[]> {
  if (rows.length === 0 || !inOrganization(auth, organizationId)) return rows.map(() => NO_ACCESS);
  const everything = await holdsEveryGrant(app, auth, organizationId);
  const documentIds = new Set(rows.map((row) => row.documentId));
  const oneDocument = documentIds.size === 1 && rows.some((row) => row.budgetId) ? ([...documentIds][0] ?? null) : null;
  const grants = everything || !auth.occupationId ? null : await levelGrants(readModels(app.db), auth.occupationId, organizationId, oneDocument);
  return Promise.all(
    rows.map(async (row) => {
      const flags = everything
        ? { read: true, update: true }
        : !grants
          ? { read: false, update: false }
          : row.budgetId
            ? budgetGrant(grants, row.documentId, row.budgetId)
            : documentGrant(grants, row.documentId);
      const restrictions = await restrictionsOf(app, auth, organizationId, [row.documentStatusId, row.budgetStatusId ?? null]);
      return withPrivileges(auth, { ...flags, restrictions }, options);
    }),
  );
}

/** Ids of the organisation's documents the caller may read (a grant on, above or below each): one query. */
export async function readableDocumentIds(app: FastifyInstance, auth: AuthContext, organizationId: string): Promise<Set<string>> {
  const documents = await listOrganizationDocuments(readModels(app.db), organizationId);
  const access = await listAccess(
    app,
    auth,
    organizationId,
    documents.map((row) => ({ organizationId, documentId: row.id, documentStatusId: row.resource_status_id })),
  );
  return new Set(documents.filter((_, index) => access[index]?.read).map((row) => row.id));
}

/**
 * Throws OBJECT_NOT_FOUND (404) when the resource belongs to an organisation the caller does not
 * act in, INSUFFICIENT_PERMISSIONS (403) without the grant the action needs, and
 * ACTION_DISALLOWED_DUE_TO_STATUS (403) when a status rule in force refuses it.
 */
export async function assertResourceAccess(
  app: FastifyInstance,
  auth: AuthContext,
  resource: ResourceRef,
  action: ResourceAction,
  options: AccessOptions = {},
): Promise<ResourceAccess> {
  if (!inOrganization(auth, resource.organizationId)) throw new DomainError('OBJECT_NOT_FOUND');
  const access = await resourceAccess(app, auth, resource, options);
  if (!access[GRANT_NEEDED[action]]) throw new DomainError('INSUFFICIENT_PERMISSIONS');
  const refusing = access.restrictions.find((rule) => REFUSED_BY[action].includes(rule));
  if (refusing) throw new DomainError('ACTION_DISALLOWED_DUE_TO_STATUS', `the resource status disallows this (${refusing})`, { rule: refusing });
  return access;
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

/**
 * The sub-budgets of a budget the caller may read and update there: all of them where the budget
 * (or anything above it) is granted, otherwise those granted one by one. `only` is a subquery for
 * the list's own query (absent: no filter), so a list of 10,000 sub-budgets is filtered in SQL;
 * `update` says who may update them (a status locking the budget's data: nobody).
 */
export async function subBudgetAccess(
  app: FastifyInstance,
  auth: AuthContext,
  budget: { organizationId: string; documentId: string; budgetId: string },
): Promise<{ only?: ReturnType<typeof subBudgetIdsGrantedOneByOne>; update: SubBudgetUpdate }> {
  const resource = { organizationId: budget.organizationId, documentId: budget.documentId, budgetId: budget.budgetId };
  const access = await resourceAccess(app, auth, resource);
  const locked = access.restrictions.some((rule) => REFUSED_BY.update.includes(rule));
  const none: SubBudgetUpdate = { kind: 'none' };
  if ((await holdsEveryGrant(app, auth, budget.organizationId)) || !auth.occupationId) {
    return { update: access.update && !locked ? { kind: 'all' } : none };
  }
  const read = readModels(app.db);
  const whole = await effectiveFlags(read, auth.occupationId, resource);
  const readsWhole = whole.own.read || whole.inherited.read;
  const update: SubBudgetUpdate = locked
    ? none
    : whole.own.update || whole.inherited.update
      ? { kind: 'all' }
      : { kind: 'granted', occupationId: auth.occupationId };
  return readsWhole ? { update } : { only: subBudgetIdsGrantedOneByOne(read, auth.occupationId, budget.budgetId, 'read'), update };
}
