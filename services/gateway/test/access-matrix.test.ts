import { randomUUID } from 'node:crypto';
import { recordStreamName } from '@eelarve/domain';
import { eventMetadata } from '@eelarve/gateway/infrastructure/commands';
import { DEFAULT_RESOURCE_STATUSES } from '@eelarve/shared';
import { accountsFixture, organizationPayload, PASSWORD } from '@eelarve/testing/accounts';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from './auth-fixtures';
import { type Client, login } from './helpers';
import { apiRoutes } from './route-world';

/**
 * Issue 10, point 7: nobody sees or changes what they should not. Every route that takes the id of
 * a document, budget, scheme, sub-budget, classifier, classifier item, budget approval or an
 * occupation's permissions is asked by occupations of every (privilege × grant) combination, on
 * resources under every status flag, in the caller's organisation and in another one. Each answer
 * is compared with `expectedAnswer`, an oracle written from the spec's rules (spec 1 §6, spec 2 §5-6,
 * issue 10 points 1, 5 and 6), not from the authorisation module.
 */

// ---- the axes ----------------------------------------------------------------------------------

const [IN_PREPARATION, , APPROVED, HIDDEN] = DEFAULT_RESOURCE_STATUSES.map((status) => status.id) as [string, string, string, string];

type ResourceStatus = 'none' | 'hidden' | 'approved';
/**
 * The status in force on the resource: its own, or, for a budget, its document's (a document's
 * status holds for its budgets too: spec 2 §6, resource-level checks per document and budget).
 */
type StatusFlag = ResourceStatus | 'documentHidden' | 'documentApproved';
/** "In preparation" has no rules; "Hidden" sets READ_DISABLED (and the other hiding rules); "Approved" locks data and settings. */
const STATUS_OF: Record<ResourceStatus, string> = { none: IN_PREPARATION, hidden: HIDDEN, approved: APPROVED };
type Rule = 'READ_DISABLED' | 'RESOURCE_WRITE_DISABLED' | 'METADATA_WRITE_DISABLED';
const RULES_OF: Record<StatusFlag, readonly Rule[]> = {
  none: [],
  hidden: ['READ_DISABLED'],
  approved: ['RESOURCE_WRITE_DISABLED', 'METADATA_WRITE_DISABLED'],
  documentHidden: ['READ_DISABLED'],
  documentApproved: ['RESOURCE_WRITE_DISABLED', 'METADATA_WRITE_DISABLED'],
};
/** The document-level status of a flag (document routes only ever get these). */
const documentStatus = (flag: StatusFlag): ResourceStatus => (flag === 'documentHidden' ? 'hidden' : flag === 'documentApproved' ? 'approved' : flag);
/** The flag is a budget's document's status, not its own. */
const fromDocument = (flag: StatusFlag) => flag === 'documentHidden' || flag === 'documentApproved';

/**
 * What the occupation was granted (spec 1 §6: read and update per occupation on organisation,
 * document, budget and sub-budget, inherited downward, update implies read):
 * - read / update: on each resource itself (the documents, and the budgets, which sit in a
 *   document of their own that is not granted);
 * - organizationRead / organizationUpdate: on the organisation, inherited by everything in it;
 * - documentUpdate: on every document, inherited by its budgets;
 * - subBudget: update on one sub-budget of each budget only: the budget and its document open to
 *   reach it (issue 10: a department granted one sub-budget signs in and sees exactly that), and
 *   nothing else is granted.
 */
const GRANTS = ['none', 'read', 'update', 'organizationRead', 'organizationUpdate', 'documentUpdate', 'subBudget'] as const;
/**
 * Besides them, an ADMIN-type occupation of the organisation: it holds every grant and its role
 * every privilege but IS_ADMIN (spec 1 §3 and §6), and is still bound by the statuses.
 */
const ADMIN_OCCUPATION = 'adminOccupation';
/**
 * And the platform administrator (IS_ADMIN, every privilege): every grant in every organisation,
 * and sees every document and budget, hidden ones too (spec 1 §6); the locks still hold.
 */
const PLATFORM_ADMIN = 'platformAdministrator';
type Grant = (typeof GRANTS)[number] | typeof ADMIN_OCCUPATION | typeof PLATFORM_ADMIN;
/** Callers who hold every privilege: the route's privilege is theirs. */
const ALL_PRIVILEGES: readonly Grant[] = [ADMIN_OCCUPATION, PLATFORM_ADMIN];

/** The privileges routes name (spec 1 §6, spec 2 §6); each occupation holds DATA_VIEW and at most one of them. */
const PRIVILEGES = ['SCHEMA_ADMIN', 'CLASSIFICATION_ADMIN', 'STATUS_ADMIN', 'USER_ADMIN'] as const;
type NamedPrivilege = (typeof PRIVILEGES)[number];

type Organization = 'own' | 'other';

/**
 * The level a route's resource sits at; the occupation level is user administration (spec 1 §6: by
 * privilege only); `subBudget` is a sub-budget seen from its budget (records: spec 3 §6), under the
 * budget's statuses, which its own grant updates.
 */
type Level = 'organization' | 'document' | 'budget' | 'subBudget' | 'occupation';

/**
 * What a route does with its resource, as the spec words it:
 * - read: open it (refused where READ_DISABLED, spec 2 §2: "tabs disabled when read is disabled");
 * - see: its approval route and history, status information shown wherever the budget is listed
 *   (issue 10 point 6; a hidden budget stays in the list, so its step does too);
 * - data: change its data or what it holds (write permission, spec 2 §6; refused where read or
 *   write is disabled: what cannot be read is not written blind);
 * - settings: change its settings (refused where METADATA_WRITE_DISABLED, spec 2 §5-6);
 * - delete: "deleting needs the budget editable and not write-disabled" (spec 2 §6), and, as for
 *   data, what cannot be read is not deleted blind (the spec does not say whether READ_DISABLED
 *   keeps "editable"; this reads it as data does);
 * - step: a step on the approval route (issue 10 point 6: never refused by a status, or an
 *   approved budget could never be reopened);
 * - settingsOrStatus: a form that carries the status: a locked resource's status may still be
 *   changed by a status administrator (spec 1 §3-4: statuses are given and lifted by STATUS_ADMIN);
 * - classifierList: read with a classifier privilege, otherwise the document's settings choose the
 *   master classifier from it (spec 2 §5);
 * - administer: the organisation's permissions, by USER_VIEW/USER_ADMIN alone (spec 1 §6);
 * - promote: a record's promoted flag: write permission and metadata writing not disabled (spec 3 §6).
 */
type Action = 'read' | 'see' | 'data' | 'settings' | 'delete' | 'step' | 'settingsOrStatus' | 'classifierList' | 'administer' | 'promote';

/** One resource of the world, as paths and bodies need it. */
interface Target {
  organizationId: string;
  documentId: string;
  documentName: string;
  masterClassifierId: string;
  budgetId: string;
  budgetName: string;
  schemeId: string;
  subBudgetId: string;
  classifierId: string;
  itemId: string;
  spareClassifierId: string;
  spareItemId: string;
  /** A record in the budget's sub-budget (made for every budget of the world). */
  recordId: string;
  /** A general saved report view of the budget (made for every budget of the world). */
  storedSettingId: string;
  /** The caller's occupation. */
  occupationId: string;
  /** An occupation whose permissions user administrators change, and one with none to copy from. */
  grantedOccupationId: string;
  emptyOccupationId: string;
}

interface RouteCase {
  /** `METHOD /url` as registered. */
  key: string;
  level: Level;
  action: Action;
  /** The privilege the route names; `gate`: the route refuses without it, whatever the resource. */
  privilege?: NamedPrivilege;
  gate?: boolean;
  /** The privilege grants update wherever the resource can be read (SCHEMA_ADMIN, CLASSIFICATION_ADMIN: spec 2 §5-6). */
  privilegeUpdates?: boolean;
  /** The 404 code of another organisation's resource. */
  notFound: string;
  request(target: Target): InjectOptions;
  /**
   * Writes that change what other cells ask about (deletions, status moves) run, where the oracle
   * allows them, on a resource made for the cell with the same status and the caller's grant;
   * where it refuses them they ask the shared resource (a leak would change it, and is reported).
   */
  fresh?: (status: StatusFlag, grant: Grant, occupationId: string, organization: Organization) => Promise<Target>;
  /** An allowed answer other than 2xx: the check after access (the approval step of a budget never submitted). */
  passedAccess?: (response: LightMyRequestResponse) => boolean;
  /** A GET's answer names the resource (its id appears in the body). */
  names?: (target: Target) => string;
  /** A list: which of the world's resources of that kind it may show (the others must not appear). */
  listed?: (target: Target) => ListCandidate[];
  /** Holding the route's privilege shows the whole list, whatever the grants. */
  privilegeListsAll?: boolean;
}

/** A resource a list may show: a document, a budget (of a document) or a sub-budget of a budget. */
type ListCandidate =
  | { kind: 'document'; id: string }
  | { kind: 'budget'; id: string; documentId: string }
  | { kind: 'scheme'; id: string; documentId: string }
  | { kind: 'subBudget'; id: string; documentId: string; budgetId: string };

// ---- the oracle ----------------------------------------------------------------------------------

interface Cell {
  route: RouteCase;
  privileged: boolean;
  grant: Grant;
  status: StatusFlag;
  organization: Organization;
}

type Answer = { status: 'ok' } | { status: 404 | 403; code: string };
const OK: Answer = { status: 'ok' };
const refused = (status: 404 | 403, code: string): Answer => ({ status, code });
const INSUFFICIENT = refused(403, 'INSUFFICIENT_PERMISSIONS');
const BY_STATUS = refused(403, 'ACTION_DISALLOWED_DUE_TO_STATUS');

/** The grants the occupation holds on a resource of `level` in its own organisation. */
function grantsAt(grant: Grant, level: Level): { read: boolean; update: boolean } {
  if (grant === ADMIN_OCCUPATION || grant === PLATFORM_ADMIN) return { read: true, update: true };
  // Every occupation reads its own organisation; only an organisation grant updates it.
  if (level === 'organization') return { read: true, update: grant === 'organizationUpdate' };
  // The sub-budget grant is an update grant on the sub-budget itself.
  if (level === 'subBudget' && grant === 'subBudget') return { read: true, update: true };
  switch (grant) {
    case 'none':
      return { read: false, update: false };
    case 'read':
    case 'organizationRead':
    case 'subBudget':
      return { read: true, update: false };
    default:
      return { read: true, update: true };
  }
}

/** Where a grant kind placed its grants in the world (see `GRANTS`): the lists' oracle reasons from it. */
interface Placement {
  organization: boolean;
  documents: ReadonlySet<string>;
  budgets: ReadonlySet<string>;
  /** Budgets with a grant on one of their sub-budgets, and that sub-budget. */
  subBudgets: ReadonlyMap<string, string>;
}

/**
 * Whether a list shows the resource: it is granted read, on itself or above it (inherited
 * downward), or something below it is granted (the way to it opens). Statuses do not hide list
 * rows: a hidden resource is listed, marked (spec 2 §2: the status column and filter).
 */
function visibleInList(placement: Placement, candidate: ListCandidate): boolean {
  if (placement.organization) return true;
  if (candidate.kind === 'document' || candidate.kind === 'scheme') {
    const documentId = candidate.kind === 'document' ? candidate.id : candidate.documentId;
    const budgetsBelow = [...placement.budgets, ...placement.subBudgets.keys()];
    return placement.documents.has(documentId) || budgetsBelow.some((budgetId) => documentOfBudget.get(budgetId) === documentId);
  }
  const wholeBudget = placement.documents.has(candidate.documentId) || placement.budgets.has(candidate.kind === 'budget' ? candidate.id : candidate.budgetId);
  if (candidate.kind === 'budget') return wholeBudget || placement.subBudgets.has(candidate.id);
  return wholeBudget || placement.subBudgets.get(candidate.budgetId) === candidate.id;
}

/** What the spec says the cell must answer. */
function expectedAnswer({ route, privileged, grant, status, organization }: Cell): Answer {
  const platform = grant === PLATFORM_ADMIN;
  if (route.gate && !privileged) return INSUFFICIENT;
  // Another organisation's ids are not even confirmed (the platform administrator acts in every one).
  if (organization === 'other' && !platform) return refused(404, route.notFound);
  if (route.action === 'administer') return OK;
  const granted = grantsAt(grant, route.level);
  const update = granted.update || (granted.read && privileged && route.privilegeUpdates === true);
  const rules = RULES_OF[status].filter((rule) => !(platform && rule === 'READ_DISABLED'));
  const allowedUnless = (needed: boolean, refusing: readonly Rule[]) =>
    !needed ? INSUFFICIENT : rules.some((rule) => refusing.includes(rule)) ? BY_STATUS : OK;
  switch (route.action) {
    case 'read':
      return allowedUnless(granted.read, ['READ_DISABLED']);
    case 'see':
      return allowedUnless(granted.read, []);
    case 'data':
      return allowedUnless(update, ['READ_DISABLED', 'RESOURCE_WRITE_DISABLED']);
    case 'settings':
      return allowedUnless(update, ['METADATA_WRITE_DISABLED']);
    case 'delete':
    case 'promote':
      return allowedUnless(update, ['READ_DISABLED', 'RESOURCE_WRITE_DISABLED', 'METADATA_WRITE_DISABLED']);
    case 'step':
      return allowedUnless(update, []);
    case 'settingsOrStatus':
      return allowedUnless(update, privileged ? [] : ['METADATA_WRITE_DISABLED']);
    case 'classifierList':
      return privileged ? allowedUnless(granted.read, ['READ_DISABLED']) : allowedUnless(update, ['METADATA_WRITE_DISABLED']);
  }
}

// ---- the world -------------------------------------------------------------------------------------

let server: TestServer;
let admin: Client;
let ownOrganization: string;
let otherOrganization: string;
/**
 * The own organisation: a document per status; budgets per status in a document of their own
 * (`budgetHome`), and the budgets of the hidden and the approved document for the document's
 * status; the organisation itself with the occupations user administration addresses.
 */
const documents = new Map<ResourceStatus, Target>();
let budgetHome: Target;
const budgets = new Map<StatusFlag, Target>();
let organizationTarget: Target;
/** A document and a budget (in the budgets' document) that only organisation grants reach; a second, ungranted sub-budget there. */
let ungrantedDocument: Target;
let secondSubBudget: string;
/** Every budget of the world by id → its document. */
const documentOfBudget = new Map<string, string>();
/** Names of the world's resources for the report. */
const labels = new Map<string, string>();
/** The other organisation's resources, under the same statuses (another organisation's hidden resource is not found either). */
interface OtherWorld {
  documents: Map<ResourceStatus, Target>;
  budgetHome: Target;
  budgets: Map<StatusFlag, Target>;
}
let otherWorld: OtherWorld;
/** The other organisation's statusless document, with its occupations (for its organisation and user-administration routes). */
let otherTarget: Target;
/** One occupation per (privilege or none) × grant, signed in once. */
const callers = new Map<string, { client: Client; occupationId: string }>();
const callerKey = (privilege: NamedPrivilege | null, grant: Grant) => `${privilege ?? 'none'}/${grant}`;

let counter = 0;
const unique = (prefix: string) => `${prefix}${++counter}`;

async function call(options: InjectOptions, expected = [200, 201]): Promise<{ id?: string } & Record<string, unknown>> {
  const response = await admin.request(options);
  if (!expected.includes(response.statusCode)) throw new Error(`${options.method} ${options.url}: ${response.statusCode} ${response.body}`);
  return response.body ? response.json() : {};
}
const created = async (url: string, payload: object) => (await call({ method: 'POST', url, payload })).id as string;

const PERIOD = { year: 2027, month: 1, duration: 1 };
const classifierBody = (fieldName: string) => ({
  name: fieldName,
  itemName: fieldName,
  fieldName,
  required: true,
  codeSettings: { typeName: 'Code', minLength: 1, maxLength: 20, hierarchical: false },
});
const schemeBody = (classifierId: string, name = 'Kulud', fieldName = 'kulud') => ({
  name,
  fieldName,
  description: '',
  classifierList: [{ classifierId, type: 'MAIN' }],
});
const subBudgetBody = (classifierId: string, code = '01') => ({ name: `Allüksus ${code}`, classifiers: { [classifierId]: code } });
const budgetBody = (name: string, statusId: string | null) => ({ type: 'COMMON', name, description: '', resourceStatusId: statusId });
const documentSettings = (target: Target, statusId: string | null) => ({
  name: target.documentName,
  description: '',
  period: PERIOD,
  masterClassifierId: target.masterClassifierId,
  resourceStatusId: statusId,
});

/**
 * A document with a master classifier (item 01) and a spare classifier, a scheme with one
 * sub-budget, and a budget, made by the platform administrator; its status is set last, as a
 * status administrator would (an approved document's settings are locked even for them).
 */
async function buildDocument(organizationId: string, status: ResourceStatus): Promise<Target> {
  const preparing = IN_PREPARATION;
  const documentName = unique('Eelarve ');
  const documentId = await created(`/api/organization/${organizationId}/document`, { name: documentName, period: PERIOD, resourceStatusId: preparing });
  const masterClassifierId = await created(`/api/document/${documentId}/classifier`, classifierBody('tegevusala'));
  const spareClassifierId = await created(`/api/document/${documentId}/classifier`, classifierBody('allikas'));
  const itemId = await created(`/api/classifier/${masterClassifierId}/item`, { code: '01', name: 'Haridus' });
  const spareItemId = await created(`/api/classifier/${spareClassifierId}/item`, { code: '02', name: 'Varu' });
  const target: Target = {
    organizationId,
    documentId,
    documentName,
    masterClassifierId,
    classifierId: masterClassifierId,
    spareClassifierId,
    itemId,
    spareItemId,
    recordId: '',
    storedSettingId: '',
    budgetId: '',
    budgetName: '',
    schemeId: '',
    subBudgetId: '',
    occupationId: '',
    grantedOccupationId: '',
    emptyOccupationId: '',
  };
  await call({ method: 'PUT', url: `/api/document/${documentId}`, payload: documentSettings(target, preparing) });
  target.schemeId = await created(`/api/document/${documentId}/schema`, schemeBody(masterClassifierId));
  target.subBudgetId = await created(`/api/schema/${target.schemeId}/sub-budget`, subBudgetBody(masterClassifierId));
  target.budgetName = unique('Põhieelarve ');
  target.budgetId = await created(`/api/document/${documentId}/budget`, budgetBody(target.budgetName, preparing));
  documentOfBudget.set(target.budgetId, documentId);
  if (status !== 'none') await call({ method: 'PUT', url: `/api/document/${documentId}`, payload: documentSettings(target, STATUS_OF[status]) });
  return target;
}

/** A budget with the given status in the budgets' own (statusless) document of its organisation. */
async function buildBudget(status: ResourceStatus, home = budgetHome): Promise<Target> {
  const budgetName = unique('Eelarve ');
  const budgetId = await created(`/api/document/${home.documentId}/budget`, budgetBody(budgetName, STATUS_OF[status]));
  documentOfBudget.set(budgetId, home.documentId);
  return { ...home, budgetId, budgetName };
}

/** Where each grant kind places its grants in the world built in `beforeAll`. */
function placementOf(grant: Grant): Placement {
  const none: Placement = { organization: false, documents: new Set(), budgets: new Set(), subBudgets: new Map() };
  const grantedDocuments = [...documents.values()].map((target) => target.documentId);
  const grantedBudgets = [...budgets.values()].map((target) => target.budgetId);
  switch (grant) {
    case 'read':
    case 'update':
      return { ...none, documents: new Set(grantedDocuments), budgets: new Set(grantedBudgets) };
    case 'documentUpdate':
      return { ...none, documents: new Set([...grantedDocuments, budgetHome.documentId]) };
    case 'subBudget':
      return {
        ...none,
        subBudgets: new Map([...documents.values(), ...budgets.values()].map((target) => [target.budgetId, target.subBudgetId])),
      };
    case 'none':
      return none;
    default:
      return { ...none, organization: true };
  }
}

/** The grants `grant` places on a document or a budget target (the organisation grants are given once). */
function grantPayload(grant: Grant, target: Target, level: 'document' | 'budget'): object[] {
  const { documentId, budgetId, subBudgetId } = target;
  const onResource = (update: boolean) => [level === 'document' ? { documentId, read: true, update } : { documentId, budgetId, read: true, update }];
  switch (grant) {
    case 'read':
      return onResource(false);
    case 'update':
      return onResource(true);
    case 'documentUpdate':
      return [{ documentId, read: true, update: true }];
    case 'subBudget':
      return [{ documentId, budgetId, subBudgetId, read: true, update: true }];
    default:
      return [];
  }
}

async function grantOn(occupationId: string, permissions: object[]): Promise<void> {
  if (permissions.length > 0) await call({ method: 'PUT', url: `/api/occupation/${occupationId}/permissions`, payload: { permissions } });
}

/** The shared document a fresh scheme, classifier or item goes into. */
const baseOf = (status: StatusFlag, organization: Organization) =>
  (organization === 'other' ? otherWorld.documents : documents).get(documentStatus(status)) as Target;
/**
 * A fresh target as the cell's caller holds it: in the own organisation with the grant kind's
 * grants; in the other one (where only the platform administrator writes) addressing its occupations.
 */
async function grantedTo(occupationId: string, grant: Grant, target: Target, level: 'document' | 'budget', organization: Organization): Promise<Target> {
  if (organization === 'other') return { ...target, grantedOccupationId: otherTarget.grantedOccupationId, emptyOccupationId: otherTarget.emptyOccupationId };
  await grantOn(occupationId, grantPayload(grant, target, level));
  return target;
}

/**
 * A record in the budget's sub-budget (its master item 01, the spare 02), appended as its creation
 * event would be: budgets whose status locks them get one too, for the routes that read them.
 */
async function recordIn(target: Target): Promise<string> {
  const recordId = randomUUID();
  const { budgetId, documentId, organizationId } = target;
  const classifiers = { [target.masterClassifierId]: '01', [target.spareClassifierId]: '02' };
  const data = {
    recordId,
    budgetId,
    documentId,
    organizationId,
    name: unique('Rida '),
    amount: '10',
    months: null,
    classifiers,
    promoted: false,
    duplicatedFrom: null,
  };
  const metadata = eventMetadata({ correlationId: 'access-matrix', userId: null, occupationId: null, organizationId }, new Date());
  const written = await server.app.store.append(recordStreamName(recordId), [{ id: randomUUID(), type: 'RecordCreated', data, metadata }], {
    expectedRevision: 'no_stream',
  });
  await server.app.projections.waitForPosition(['records'], written.position, 10_000);
  return recordId;
}

/** A general saved report view of the target's budget: saved by the platform administrator and promoted. */
async function generalViewIn(target: Target): Promise<string> {
  const { documentId, budgetId } = target;
  const id = await created('/api/stored-settings', { type: 'REPORT', name: unique('Vaade '), documentId, budgetId, settings: {} });
  await call({ method: 'POST', url: `/api/stored-settings/${id}/promote` });
  return id;
}

/** Fresh resources for writes that are allowed (the caller's grants follow them). */
const fresh = {
  async record(status: StatusFlag, _grant: Grant, _occupationId: string, organization: Organization) {
    const base = (organization === 'other' ? otherWorld.budgets : budgets).get(status) as Target;
    return { ...base, recordId: await recordIn(base) };
  },
  async document(status: StatusFlag, grant: Grant, occupationId: string, organization: Organization) {
    const target = await buildDocument(organization === 'own' ? ownOrganization : otherOrganization, documentStatus(status));
    return grantedTo(occupationId, grant, target, 'document', organization);
  },
  async budget(status: StatusFlag, grant: Grant, occupationId: string, organization: Organization) {
    const own = organization === 'own';
    // Under its document's status: the budget of a new document with that status (made before the status locks it).
    const target = fromDocument(status)
      ? await buildDocument(own ? ownOrganization : otherOrganization, documentStatus(status))
      : await buildBudget(documentStatus(status), own ? budgetHome : otherWorld.budgetHome);
    return grantedTo(occupationId, grant, target, 'budget', organization);
  },
  async scheme(status: StatusFlag, _grant: Grant, _occupationId: string, organization: Organization) {
    const base = baseOf(status, organization);
    const name = unique('Skeem');
    const schemeId = await created(`/api/document/${base.documentId}/schema`, schemeBody(base.masterClassifierId, name, name.toLowerCase()));
    return { ...base, schemeId };
  },
  async subBudget(status: StatusFlag, grant: Grant, occupationId: string, organization: Organization) {
    const scheme = await fresh.scheme(status, grant, occupationId, organization);
    // A master item of its own: the world's records carry item 01, and a sub-budget with records is not deleted.
    const code = unique('8');
    await created(`/api/classifier/${scheme.masterClassifierId}/item`, { code, name: 'Tühi' });
    const subBudgetId = await created(`/api/schema/${scheme.schemeId}/sub-budget`, subBudgetBody(scheme.masterClassifierId, code));
    return { ...scheme, subBudgetId };
  },
  async classifier(status: StatusFlag, _grant: Grant, _occupationId: string, organization: Organization) {
    const base = baseOf(status, organization);
    const spareClassifierId = await created(`/api/document/${base.documentId}/classifier`, classifierBody(unique('liik')));
    return { ...base, spareClassifierId };
  },
  async item(status: StatusFlag, _grant: Grant, _occupationId: string, organization: Organization) {
    const base = baseOf(status, organization);
    const spareItemId = await created(`/api/classifier/${base.spareClassifierId}/item`, { code: unique('9'), name: 'Uus' });
    return { ...base, spareItemId };
  },
};

// ---- the routes ------------------------------------------------------------------------------------

const get = (url: string): InjectOptions => ({ method: 'GET', url });
const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object): InjectOptions => ({ method, url, ...(payload ? { payload } : {}) });
/** Approval steps after the access check on a budget that was never submitted: the route's own refusal. */
const stepRefusedByRoute = (response: LightMyRequestResponse) =>
  ['APPROVAL_STATE_INVALID', 'APPROVAL_ACTION_NOT_ALLOWED'].includes(codeOf(response).code ?? '');

const documentRoute = (key: string, action: Action, request: RouteCase['request'], extra: Partial<RouteCase> = {}): RouteCase => ({
  key,
  level: 'document',
  action,
  notFound: 'OBJECT_NOT_FOUND',
  request,
  ...extra,
});
const budgetRoute = (key: string, action: Action, request: RouteCase['request'], extra: Partial<RouteCase> = {}): RouteCase => ({
  key,
  level: 'budget',
  action,
  notFound: 'BUDGET_NOT_FOUND',
  request,
  ...extra,
});
/** A record route: the budget's sub-budget (the world's sub-budget grant updates it), under the budget's statuses. */
const recordRoute = (key: string, action: Action, request: RouteCase['request'], extra: Partial<RouteCase> = {}): RouteCase => ({
  key,
  level: 'subBudget',
  action,
  notFound: 'BUDGET_NOT_FOUND',
  request,
  passedAccess: recordRuleRefused,
  ...extra,
});
/**
 * A record rule's refusal comes after the access check: other cells add required classifiers to
 * the shared documents (fresh classifiers), which the world's records then lack.
 */
const recordRuleRefused = (response: LightMyRequestResponse) => response.statusCode === 422 && (codeOf(response).code ?? '').startsWith('RECORD_');
const recordPlace = (t: Target) => `/api/budget/${t.budgetId}/sub-budget/${t.subBudgetId}`;
/** Import routes answer IMPORT_NOT_FOUND, after the access check, where nothing was imported yet. */
const nothingImportedYet = (response: LightMyRequestResponse) => response.statusCode === 404 && codeOf(response).code === 'IMPORT_NOT_FOUND';
const skippedImportRows = { list: [{ name: 'Rida', amount: '1', classifiers: {} }] };
function recordImportRoutes(): RouteCase[] {
  const viewed = { passedAccess: nothingImportedYet };
  return [
    budgetRoute('POST /api/budget/:budgetId/records', 'data', (t) => send('POST', `/api/budget/${t.budgetId}/records`, skippedImportRows)),
    budgetRoute('POST /api/budget/:budgetId/records/preview', 'data', (t) => send('POST', `/api/budget/${t.budgetId}/records/preview`, skippedImportRows)),
    budgetRoute('GET /api/budget/:budgetId/import/status', 'read', (t) => get(`/api/budget/${t.budgetId}/import/status`), viewed),
    budgetRoute('GET /api/budget/:budgetId/import/report', 'read', (t) => get(`/api/budget/${t.budgetId}/import/report`), viewed),
    budgetRoute('GET /api/budget/:budgetId/import/error', 'read', (t) => get(`/api/budget/${t.budgetId}/import/error`), viewed),
    recordRoute('POST /api/budget/:budgetId/sub-budget/:subBudgetId/records', 'data', (t) => send('POST', `${recordPlace(t)}/records`, skippedImportRows)),
    recordRoute('POST /api/budget/:budgetId/sub-budget/:subBudgetId/records/preview', 'data', (t) =>
      send('POST', `${recordPlace(t)}/records/preview`, skippedImportRows),
    ),
    recordRoute('GET /api/budget/:budgetId/sub-budget/:subBudgetId/import/status', 'read', (t) => get(`${recordPlace(t)}/import/status`), viewed),
    recordRoute('GET /api/budget/:budgetId/sub-budget/:subBudgetId/import/report', 'read', (t) => get(`${recordPlace(t)}/import/report`), viewed),
  ];
}
const schemes = { privilege: 'SCHEMA_ADMIN', gate: true, privilegeUpdates: true, notFound: 'SCHEME_NOT_FOUND' } as const;
const subBudgets = { ...schemes, notFound: 'SUB_BUDGET_NOT_FOUND' } as const;
const classifiers = { privilege: 'CLASSIFICATION_ADMIN', gate: true, privilegeUpdates: true, notFound: 'CLASSIFIER_NOT_FOUND' } as const;
const userAdministration = { level: 'occupation', action: 'administer', privilege: 'USER_ADMIN', gate: true, notFound: 'OCCUPATION_NOT_FOUND' } as const;

/** The own organisation's documents and budgets made in `beforeAll` (lists run before any write adds more). */
const worldDocuments = (): ListCandidate[] =>
  [...documents.values(), budgetHome, ungrantedDocument].map((target) => ({ kind: 'document', id: target.documentId }));
const worldBudgets = (): (ListCandidate & { kind: 'budget' })[] =>
  [...documentOfBudget]
    .filter(([, documentId]) => worldDocuments().some((candidate) => candidate.id === documentId))
    .map(([id, documentId]) => ({ kind: 'budget', id, documentId }));

const ROUTES: RouteCase[] = [
  // Organisation: its documents, budgets and schemes (spec 1 §6: an organisation update grant creates and reorders documents).
  {
    key: 'GET /api/organization/:organizationId/documents',
    level: 'organization',
    action: 'read',
    notFound: 'OBJECT_NOT_FOUND',
    request: (t) => get(`/api/organization/${t.organizationId}/documents`),
    listed: worldDocuments,
  },
  {
    // The whole tree, for the permission screens' pickers: user administrators see every document,
    // anyone else what the grants reach (spec 1 §6-7: the permission screens are USER_VIEW/USER_ADMIN's).
    key: 'GET /api/organization/:id/all-documents',
    level: 'organization',
    action: 'read',
    privilege: 'USER_ADMIN',
    privilegeListsAll: true,
    notFound: 'OBJECT_NOT_FOUND',
    request: (t) => get(`/api/organization/${t.organizationId}/all-documents`),
    listed: worldDocuments,
  },
  {
    key: 'GET /api/organization/:id/budgets',
    level: 'organization',
    action: 'read',
    notFound: 'OBJECT_NOT_FOUND',
    request: (t) => get(`/api/organization/${t.organizationId}/budgets`),
    listed: worldBudgets,
  },
  {
    key: 'GET /api/organization/:id/schemas',
    level: 'organization',
    action: 'read',
    privilege: 'SCHEMA_ADMIN',
    gate: true,
    notFound: 'OBJECT_NOT_FOUND',
    request: (t) => get(`/api/organization/${t.organizationId}/schemas`),
    // A scheme is its document's structure (spec 2 §6: SCHEMA_VIEW gates a document's schemes tab): listed where the document is.
    listed: () =>
      [...documents.values(), budgetHome, ungrantedDocument].map((target) => ({ kind: 'scheme', id: target.schemeId, documentId: target.documentId })),
  },
  {
    key: 'POST /api/organization/:organizationId/document',
    level: 'organization',
    action: 'data',
    notFound: 'OBJECT_NOT_FOUND',
    request: (t) =>
      send('POST', `/api/organization/${t.organizationId}/document`, {
        name: unique('Uus '),
        period: PERIOD,
        resourceStatusId: IN_PREPARATION,
      }),
  },
  {
    key: 'PUT /api/organization/:organizationId/documents/order',
    level: 'organization',
    action: 'data',
    notFound: 'OBJECT_NOT_FOUND',
    request: (t) => send('PUT', `/api/organization/${t.organizationId}/documents/order`, { list: [{ id: t.documentId, order: 1 }] }),
  },

  // Documents.
  documentRoute('GET /api/document/:id', 'read', (t) => get(`/api/document/${t.documentId}`), { names: (t) => t.documentId }),
  documentRoute('PUT /api/document/:id', 'settingsOrStatus', (t) => send('PUT', `/api/document/${t.documentId}`, documentSettings(t, IN_PREPARATION)), {
    privilege: 'STATUS_ADMIN',
    fresh: fresh.document,
  }),
  documentRoute('DELETE /api/document/:id', 'delete', (t) => send('DELETE', `/api/document/${t.documentId}`), { fresh: fresh.document }),
  documentRoute('POST /api/document/:id/budget', 'data', (t) =>
    send('POST', `/api/document/${t.documentId}/budget`, budgetBody(unique('Lisatud '), IN_PREPARATION)),
  ),
  documentRoute('GET /api/document/:id/budgets', 'read', (t) => get(`/api/document/${t.documentId}/budgets`), {
    names: (t) => t.budgetId,
    listed: (t) => worldBudgets().filter((candidate) => candidate.documentId === t.documentId),
  }),
  documentRoute('GET /api/document/:id/budgets/hierarchy', 'read', (t) => get(`/api/document/${t.documentId}/budgets/hierarchy`), {
    names: (t) => t.budgetId,
    listed: (t) => worldBudgets().filter((candidate) => candidate.documentId === t.documentId),
  }),
  documentRoute('GET /api/document/:id/budgets/transferrable-sub-budgets', 'read', (t) =>
    get(`/api/document/${t.documentId}/budgets/transferrable-sub-budgets?sourceBudgetId=${t.budgetId}`),
  ),
  documentRoute('PUT /api/document/:id/budgets/order', 'data', (t) =>
    send('PUT', `/api/document/${t.documentId}/budgets/order`, { list: [{ id: t.budgetId, order: 1 }] }),
  ),
  documentRoute('GET /api/document/:id/classifiers', 'classifierList', (t) => get(`/api/document/${t.documentId}/classifiers`), {
    privilege: 'CLASSIFICATION_ADMIN',
    names: (t) => t.masterClassifierId,
  }),
  documentRoute(
    'POST /api/document/:documentId/classifier',
    'settings',
    (t) => send('POST', `/api/document/${t.documentId}/classifier`, classifierBody(unique('uus'))),
    { ...classifiers, notFound: 'OBJECT_NOT_FOUND' },
  ),
  documentRoute(
    'PUT /api/document/:documentId/classifier-order',
    'settings',
    (t) => send('PUT', `/api/document/${t.documentId}/classifier-order`, { list: [] }),
    {
      ...classifiers,
      notFound: 'OBJECT_NOT_FOUND',
    },
  ),
  documentRoute('GET /api/document/:id/schemas', 'read', (t) => get(`/api/document/${t.documentId}/schemas`), { names: (t) => t.schemeId }),
  documentRoute(
    'POST /api/document/:documentId/schema',
    'settings',
    (t) => {
      const name = unique('Lisaskeem');
      return send('POST', `/api/document/${t.documentId}/schema`, schemeBody(t.masterClassifierId, name, name.toLowerCase()));
    },
    { ...schemes, notFound: 'OBJECT_NOT_FOUND' },
  ),
  documentRoute(
    'PUT /api/document/:documentId/schema-display-order',
    'settings',
    (t) => send('PUT', `/api/document/${t.documentId}/schema-display-order`, [{ id: t.schemeId, displayOrder: 1 }]),
    { ...schemes, notFound: 'OBJECT_NOT_FOUND' },
  ),
  {
    key: 'GET /api/document/:id/permissions',
    ...userAdministration,
    notFound: 'OBJECT_NOT_FOUND',
    request: (t) => get(`/api/document/${t.documentId}/permissions`),
  },

  // Budgets and their approval route.
  budgetRoute('GET /api/budget/:id', 'read', (t) => get(`/api/budget/${t.budgetId}`), { names: (t) => t.budgetId }),
  // A general saved view is read by whoever reads its budget (spec 3, section 4); an unknown or foreign one is not found.
  {
    key: 'GET /api/stored-setting/:id',
    level: 'budget',
    action: 'read',
    notFound: 'OBJECT_NOT_FOUND',
    request: (t) => get(`/api/stored-setting/${t.storedSettingId}`),
    names: (t) => t.storedSettingId,
  },
  budgetRoute('PUT /api/budget/:id', 'settingsOrStatus', (t) => send('PUT', `/api/budget/${t.budgetId}`, budgetBody(t.budgetName, IN_PREPARATION)), {
    privilege: 'STATUS_ADMIN',
    fresh: fresh.budget,
  }),
  budgetRoute('PUT /api/budget/:id/tags', 'settings', (t) => send('PUT', `/api/budget/${t.budgetId}/tags`, { tags: [] })),
  budgetRoute('DELETE /api/budget/:id', 'delete', (t) => send('DELETE', `/api/budget/${t.budgetId}`), { fresh: fresh.budget }),
  budgetRoute('GET /api/budget/:id/copy-schemes', 'read', (t) => get(`/api/budget/${t.budgetId}/copy-schemes?targetDocumentId=${t.documentId}`)),
  budgetRoute('GET /api/budget/:id/approval', 'see', (t) => get(`/api/budget/${t.budgetId}/approval`)),
  budgetRoute('POST /api/budget/:id/approval/submit', 'step', (t) => send('POST', `/api/budget/${t.budgetId}/approval/submit`, { comment: '' }), {
    fresh: fresh.budget,
  }),
  budgetRoute('POST /api/budget/:id/approval/approve', 'step', (t) => send('POST', `/api/budget/${t.budgetId}/approval/approve`, { comment: '' }), {
    passedAccess: stepRefusedByRoute,
  }),
  budgetRoute('POST /api/budget/:id/approval/send-back', 'step', (t) => send('POST', `/api/budget/${t.budgetId}/approval/send-back`, { reason: 'Parandada' }), {
    passedAccess: stepRefusedByRoute,
  }),
  budgetRoute('POST /api/budget/:id/approval/reopen', 'step', (t) => send('POST', `/api/budget/${t.budgetId}/approval/reopen`, { reason: 'Avada' }), {
    passedAccess: stepRefusedByRoute,
  }),
  // A budget's sub-budgets answer an unknown budget, and another organisation's, with BUDGET_NOT_FOUND (as every budget route).
  budgetRoute('GET /api/budget/:budgetId/schema/:schemaId/sub-budgets', 'read', (t) => get(`/api/budget/${t.budgetId}/schema/${t.schemeId}/sub-budgets`), {
    names: (t) => t.subBudgetId,
    listed: (t) =>
      // The budgets' document's scheme has a second sub-budget, granted to nobody one by one.
      [t.subBudgetId, ...(t.documentId === budgetHome.documentId ? [secondSubBudget] : [])].map((id) => ({
        kind: 'subBudget' as const,
        id,
        documentId: t.documentId,
        budgetId: t.budgetId,
      })),
  }),
  // Records (spec 3 §6): read with the budget (a sub-budget grant reads the records of its sub-budget), changed with the
  // sub-budget's update grant unless data writing is disabled; promotion also needs metadata writing.
  budgetRoute('GET /api/budget/:budgetId/records', 'read', (t) => get(`/api/budget/${t.budgetId}/records`), { names: (t) => t.recordId }),
  budgetRoute('GET /api/budget/:budgetId/schema/:schemaId/records', 'read', (t) => get(`/api/budget/${t.budgetId}/schema/${t.schemeId}/records`), {
    names: (t) => t.recordId,
  }),
  budgetRoute('GET /api/budget/:budgetId/schema-records', 'read', (t) => get(`/api/budget/${t.budgetId}/schema-records?schemaIds=${t.schemeId}`), {
    names: (t) => t.recordId,
  }),
  recordRoute('GET /api/budget/:budgetId/sub-budget/:subBudgetId/records', 'read', (t) => get(`${recordPlace(t)}/records`), { names: (t) => t.recordId }),
  // The report (issue 12): read with the budget, as its records; a sub-budget grant counts only its sub-budget.
  budgetRoute('POST /api/budget/:budgetId/report', 'read', (t) => send('POST', `/api/budget/${t.budgetId}/report`, { schemeId: t.schemeId })),
  // The other budgets with records in the sub-budget: read on the sub-budget seen from its budget, as its records.
  recordRoute('GET /api/budget/:budgetId/sub-budget/:subBudgetId/matching-budgets', 'read', (t) => get(`${recordPlace(t)}/matching-budgets`)),
  recordRoute('POST /api/budget/:budgetId/sub-budget/:subBudgetId/record', 'data', (t) =>
    send('POST', `${recordPlace(t)}/record`, { name: 'Uus rida', amount: '1', classifiers: { [t.spareClassifierId]: '02' } }),
  ),
  recordRoute('PUT /api/budget/:budgetId/sub-budget/:subBudgetId/record/:id', 'data', (t) =>
    send('PUT', `${recordPlace(t)}/record/${t.recordId}`, { name: unique('Muudetud rida ') }),
  ),
  recordRoute('POST /api/budget/:budgetId/sub-budget/:subBudgetId/record/:id/promote', 'promote', (t) =>
    send('POST', `${recordPlace(t)}/record/${t.recordId}/promote`),
  ),
  recordRoute('DELETE /api/budget/:budgetId/sub-budget/:subBudgetId/record/:id', 'data', (t) => send('DELETE', `${recordPlace(t)}/record/${t.recordId}`), {
    fresh: fresh.record,
  }),
  recordRoute(
    'POST /api/budget/:budgetId/sub-budget/:subBudgetId/records-delete',
    'data',
    (t) => send('POST', `${recordPlace(t)}/records-delete`, { recordIds: [t.recordId] }),
    {
      fresh: fresh.record,
    },
  ),
  recordRoute('POST /api/budget/:budgetId/sub-budget/:subBudgetId/records-bulk-edit', 'data', (t) =>
    send('POST', `${recordPlace(t)}/records-bulk-edit`, { recordIds: [t.recordId], updates: { name: unique('Hulgi ') } }),
  ),
  recordRoute('GET /api/budget/:budgetId/sub-budget/:subBudgetId/record/:id/history', 'read', (t) => get(`${recordPlace(t)}/record/${t.recordId}/history`), {
    names: (t) => t.recordId,
  }),
  // After the access check: an id that is not a change of the record (the route's own refusal).
  recordRoute(
    'POST /api/budget/:budgetId/sub-budget/:subBudgetId/record/:id/revert',
    'data',
    (t) => send('POST', `${recordPlace(t)}/record/${t.recordId}/revert`, { eventId: t.recordId }),
    {
      passedAccess: (response) => recordRuleRefused(response) || codeOf(response).code === 'RECORD_ID_INVALID',
    },
  ),
  // The raw events: auditors (USER_ADMIN) who read the record.
  recordRoute('GET /api/budget/:budgetId/sub-budget/:subBudgetId/record/:id/events', 'read', (t) => get(`${recordPlace(t)}/record/${t.recordId}/events`), {
    privilege: 'USER_ADMIN',
    gate: true,
    names: (t) => t.recordId,
  }),
  budgetRoute('PUT /api/budget/:budgetId/schema/:schemaId/settings', 'data', (t) =>
    send('PUT', `/api/budget/${t.budgetId}/schema/${t.schemeId}/settings`, { pinned: [] }),
  ),

  // Record imports (spec 3 §6): into the budget with its update grant, into the sub-budget with the sub-budget's, unless
  // data writing is disabled; the import's status, report and error report with read. The matrix sends plain JSON
  // (the import routes take it as well as gzip) and rows without classifiers, which the job skips: nothing is added.
  ...recordImportRoutes(),

  // Schemes and their sub-budgets (the document's structure: SCHEMA_ADMIN edits where the document can be read).
  documentRoute('PUT /api/schema/:schemaId', 'settings', (t) => send('PUT', `/api/schema/${t.schemeId}`, schemeBody(t.masterClassifierId)), schemes),
  documentRoute('DELETE /api/schema/:schemaId', 'settings', (t) => send('DELETE', `/api/schema/${t.schemeId}`), { ...schemes, fresh: fresh.scheme }),
  documentRoute('GET /api/schema/:schemaId/sub-budgets', 'read', (t) => get(`/api/schema/${t.schemeId}/sub-budgets`), {
    ...schemes,
    names: (t) => t.subBudgetId,
  }),
  documentRoute('GET /api/schema/:id/sub-budget-counts', 'read', (t) => get(`/api/schema/${t.schemeId}/sub-budget-counts`), schemes),
  documentRoute('GET /api/schema/:schemaId/classifier-preselections', 'read', (t) => get(`/api/schema/${t.schemeId}/classifier-preselections`), schemes),
  documentRoute(
    'POST /api/schema/:schemaId/sub-budget',
    'settings',
    (t) => send('POST', `/api/schema/${t.schemeId}/sub-budget`, subBudgetBody(t.masterClassifierId)),
    {
      ...schemes,
      fresh: fresh.scheme,
    },
  ),
  documentRoute(
    'PUT /api/schema/:schemaId/sub-budget/:subBudgetId',
    'settings',
    (t) => send('PUT', `/api/schema/${t.schemeId}/sub-budget/${t.subBudgetId}`, subBudgetBody(t.masterClassifierId)),
    schemes,
  ),
  documentRoute(
    'DELETE /api/schema/:schemaId/sub-budget/:subBudgetId',
    'settings',
    (t) => send('DELETE', `/api/schema/${t.schemeId}/sub-budget/${t.subBudgetId}`),
    {
      ...schemes,
      fresh: fresh.subBudget,
    },
  ),
  documentRoute(
    'DELETE /api/schema/:schemaId/sub-budgets',
    'settings',
    (t) => send('DELETE', `/api/schema/${t.schemeId}/sub-budgets`, { ids: [t.subBudgetId] }),
    {
      ...schemes,
      fresh: fresh.subBudget,
    },
  ),
  documentRoute(
    'POST /api/schema/:schemaId/sub-budgets/import',
    'settings',
    (t) =>
      send('POST', `/api/schema/${t.schemeId}/sub-budgets/import`, {
        importType: 'PRESELECTIONS_ONLY',
        list: [{ id: t.subBudgetId, classifiers: {} }],
      }),
    schemes,
  ),
  documentRoute('GET /api/sub-budget/:id/has-records', 'read', (t) => get(`/api/sub-budget/${t.subBudgetId}/has-records`), {
    notFound: 'SUB_BUDGET_NOT_FOUND',
  }),
  documentRoute('GET /api/sub-budget/:subBudgetId/classifier-preselections', 'read', (t) => get(`/api/sub-budget/${t.subBudgetId}/classifier-preselections`), {
    notFound: 'SUB_BUDGET_NOT_FOUND',
    names: (t) => t.subBudgetId,
  }),
  documentRoute(
    'PUT /api/sub-budget/:subBudgetId/classifier-preselections',
    'settings',
    (t) => send('PUT', `/api/sub-budget/${t.subBudgetId}/classifier-preselections`, { preselections: {} }),
    subBudgets,
  ),

  // Classifiers and their items (CLASSIFICATION_ADMIN edits where the document can be read, spec 2 §5).
  documentRoute('PUT /api/classifier/:id', 'settings', (t) => send('PUT', `/api/classifier/${t.spareClassifierId}`, classifierBody('allikas')), classifiers),
  documentRoute('DELETE /api/classifier/:id', 'settings', (t) => send('DELETE', `/api/classifier/${t.spareClassifierId}`), {
    ...classifiers,
    fresh: fresh.classifier,
  }),
  documentRoute('GET /api/classifier/:classifierId/items', 'read', (t) => get(`/api/classifier/${t.classifierId}/items`), {
    ...classifiers,
    names: (t) => t.itemId,
  }),
  documentRoute(
    'GET /api/classifier/:classifierId/items/template',
    'read',
    (t) => get(`/api/classifier/${t.classifierId}/items/template?format=csv`),
    classifiers,
  ),
  documentRoute(
    'POST /api/classifier/:classifierId/item',
    'settings',
    (t) => send('POST', `/api/classifier/${t.spareClassifierId}/item`, { code: unique('5'), name: 'Lisatud' }),
    classifiers,
  ),
  documentRoute(
    'PUT /api/classifier/:classifierId/item/:itemId',
    'settings',
    (t) => send('PUT', `/api/classifier/${t.classifierId}/item/${t.itemId}`, { code: '01', name: 'Haridus' }),
    classifiers,
  ),
  documentRoute(
    'PUT /api/classifier/:classifierId/items',
    'settings',
    (t) => send('PUT', `/api/classifier/${t.classifierId}/items`, { itemIds: [t.itemId], unselectable: false }),
    classifiers,
  ),
  documentRoute(
    'DELETE /api/classifier/:classifierId/item/:itemId',
    'settings',
    (t) => send('DELETE', `/api/classifier/${t.spareClassifierId}/item/${t.spareItemId}`),
    {
      ...classifiers,
      fresh: fresh.item,
    },
  ),
  documentRoute(
    'POST /api/classifier/:classifierId/items/delete',
    'settings',
    (t) => send('POST', `/api/classifier/${t.spareClassifierId}/items/delete`, { itemIds: [t.spareItemId] }),
    { ...classifiers, fresh: fresh.item },
  ),
  documentRoute(
    'POST /api/classifier/:classifierId/items',
    'settings',
    (t) => send('POST', `/api/classifier/${t.spareClassifierId}/items`, { items: [{ code: unique('6'), name: 'Imporditud', unselectable: false }] }),
    classifiers,
  ),

  // An occupation's permissions: user administration, by privilege, in the caller's organisation only.
  { key: 'GET /api/occupation/:id/permissions', ...userAdministration, request: (t) => get(`/api/occupation/${t.grantedOccupationId}/permissions`) },
  // The permission screens' pickers: every budget, scheme and sub-budget by name, whatever the caller's own grants.
  {
    key: 'GET /api/document/:id/permission-resources',
    ...userAdministration,
    notFound: 'OBJECT_NOT_FOUND',
    request: (t) => get(`/api/document/${t.documentId}/permission-resources`),
    names: (t) => t.budgetId,
  },
  {
    key: 'GET /api/schema/:id/permission-sub-budgets',
    ...userAdministration,
    notFound: 'SCHEME_NOT_FOUND',
    request: (t) => get(`/api/schema/${t.schemeId}/permission-sub-budgets`),
    names: (t) => t.subBudgetId,
  },
  {
    key: 'PUT /api/occupation/:id/permission',
    ...userAdministration,
    request: (t) => send('PUT', `/api/occupation/${t.grantedOccupationId}/permission`, { documentId: t.documentId, read: true, update: false }),
  },
  {
    key: 'PUT /api/occupation/:id/permissions',
    ...userAdministration,
    request: (t) =>
      send('PUT', `/api/occupation/${t.grantedOccupationId}/permissions`, { permissions: [{ documentId: t.documentId, read: true, update: false }] }),
  },
  {
    key: 'POST /api/occupation/:id/permissions/copy',
    ...userAdministration,
    request: (t) => send('POST', `/api/occupation/${t.grantedOccupationId}/permissions/copy`, { fromOccupationId: t.emptyOccupationId }),
  },
];

/**
 * Routes with an id that are not resource routes, each with why: they are decided by a privilege
 * and the caller's organisation alone, and their own tests cover them. A new route with an id must
 * join the matrix or this list, or the coverage test fails.
 */
const OUTSIDE_THE_MATRIX: Record<string, string> = {
  'POST /api/classifier/:classifierId/items/validate': 'a multipart file upload; the same classifier check as the items import, which the matrix asks',
  'DELETE /api/admin/:id': 'platform administration (IS_ADMIN): admin-occupations.test.ts',
  'POST /api/admin/:id': 'platform administration (IS_ADMIN)',
  'PUT /api/admin/budgets/:budgetId/sync': 'platform administration (IS_ADMIN): a monitoring budget’s synchronisation',
  'POST /api/admin/projections/:name/rebuild': 'platform administration (IS_ADMIN)',
  'POST /api/admin/user/:id/remove-auth-methods': 'platform administration (IS_ADMIN)',
  'GET /api/budget/:id/api-key': 'platform administration (IS_ADMIN): a monitoring budget’s key',
  'PUT /api/organization/:id': 'platform administration (IS_ADMIN): organizations.test.ts',
  'DELETE /api/organization/:id': 'platform administration (IS_ADMIN): organizations.test.ts',
  'DELETE /api/occupation/:id': 'user administration (USER_ADMIN) of occupations: occupations.test.ts, isolation.test.ts',
  'PUT /api/occupation/:id': 'user administration (USER_ADMIN) of occupations: occupations.test.ts, isolation.test.ts',
  'POST /api/organization/:id/occupation': 'user administration: occupations.test.ts, isolation.test.ts',
  'GET /api/organization/:id/occupations': 'user administration: occupations.test.ts, isolation.test.ts',
  'POST /api/organization/:id/role': 'role administration (ROLES_ADMIN): roles.test.ts, isolation.test.ts',
  'GET /api/organization/:id/roles': 'role administration: roles.test.ts, isolation.test.ts',
  'DELETE /api/organization/:orgId/role/:id': 'role administration: roles.test.ts, isolation.test.ts',
  'PUT /api/organization/:orgId/role/:id': 'role administration: roles.test.ts, isolation.test.ts',
  'POST /api/organization/:id/user': 'user administration: users.test.ts, isolation.test.ts',
  'GET /api/organization/:id/users': 'user administration: users.test.ts, isolation.test.ts',
  'GET /api/organization/:id/user-names': 'user administration: users.test.ts, isolation.test.ts',
  'DELETE /api/organization/:id/user/:userId': 'user administration: users.test.ts, isolation.test.ts',
  'PUT /api/organization/:id/user/:userId': 'user administration: users.test.ts, isolation.test.ts',
  'GET /api/organization/:id/approval-route': 'status administration (STATUS_VIEW/STATUS_ADMIN) of the organisation: approval-route.test.ts',
  'PUT /api/organization/:id/approval-route': 'status administration (STATUS_ADMIN): approval-route.test.ts',
  'DELETE /api/organization/:id/approval-route': 'status administration (STATUS_ADMIN): approval-route.test.ts',
  'PUT /api/resource-status/:id': 'status administration (STATUS_ADMIN): resource-statuses.test.ts',
  'DELETE /api/resource-status/:id': 'status administration (STATUS_ADMIN): resource-statuses.test.ts',
  'POST /api/resource-status/:id/reset': 'status administration (STATUS_ADMIN): resource-statuses.test.ts',
  'GET /api/task/:id': "a task is the caller's own: tasks.test.ts",
  // Changing a general saved view needs read access to its budget and an update grant on its document (no status locks a
  // view): an oracle of its own; stored-settings.test.ts asks it with no grant, read and update grants, another organisation
  // and a hidden budget. A personal view is its owner's alone.
  'DELETE /api/stored-settings/:id': 'a saved report view, personal or general: stored-settings.test.ts',
  'POST /api/stored-settings/:id/promote': 'a saved report view, promoted with document update permission: stored-settings.test.ts',
  'GET /api/budget/:budgetId/report/changes':
    'a server-sent event stream that stays open (an inject never ends): report-live.test.ts asks it with and without read access',
};

// ---- running the matrix ----------------------------------------------------------------------------

/** The target of a cell: the own organisation's resource under the status, or the other organisation's. */
function targetOf(route: RouteCase, status: StatusFlag, organization: Organization): Target {
  if (route.level === 'organization' || route.level === 'occupation') return organization === 'own' ? organizationTarget : otherTarget;
  const ofBudget = route.level === 'budget' || route.level === 'subBudget';
  if (organization === 'other') return (ofBudget ? otherWorld.budgets : otherWorld.documents).get(status) as Target;
  return (ofBudget ? budgets : documents).get(status) as Target;
}

/** The statuses a level can carry: organisations and occupations have none. */
const statusesOf = (route: RouteCase): StatusFlag[] =>
  route.level === 'budget' || route.level === 'subBudget'
    ? ['none', 'hidden', 'approved', 'documentHidden', 'documentApproved']
    : route.level === 'document'
      ? ['none', 'hidden', 'approved']
      : ['none'];

function cellsOf(route: RouteCase): Cell[] {
  const cells: Cell[] = [];
  for (const privileged of route.privilege ? [false, true] : [false]) {
    for (const grant of GRANTS) {
      for (const status of statusesOf(route)) {
        for (const organization of ['own', 'other'] as const) cells.push({ route, privileged, grant, status, organization });
      }
    }
  }
  for (const grant of ALL_PRIVILEGES) {
    for (const status of statusesOf(route)) {
      for (const organization of ['own', 'other'] as const) cells.push({ route, privileged: route.privilege !== undefined, grant, status, organization });
    }
  }
  return cells;
}

interface Outcome {
  cell: Cell;
  expected: Answer;
  actual: string;
  agrees: boolean;
  /** The server answered more than the oracle allows: a success, or anything but 404 for another organisation's id. */
  leak: boolean;
}

/** The error code of a JSON answer (a template download answers a file). */
const codeOf = (response: LightMyRequestResponse): { code?: string } =>
  String(response.headers['content-type'] ?? '').includes('json') ? (response.json() as { code?: string }) : {};

const describeAnswer = (answer: Answer) => (answer.status === 'ok' ? 'ok' : `${answer.status} ${answer.code}`);

async function runCell(cell: Cell): Promise<Outcome> {
  const { route, privileged, grant, status, organization } = cell;
  const caller = callers.get(ALL_PRIVILEGES.includes(grant) ? grant : callerKey(privileged ? (route.privilege ?? null) : null, grant));
  if (!caller) throw new Error(`no caller for ${route.key}`);
  const expected = expectedAnswer(cell);
  const shared = targetOf(route, status, organization);
  const target = expected.status === 'ok' && route.fresh ? await route.fresh(status, grant, caller.occupationId, organization) : shared;
  const response = await caller.client.request(route.request({ ...target, occupationId: caller.occupationId }));
  const body = codeOf(response);
  const success = response.statusCode >= 200 && response.statusCode < 300;
  const passed = success || (route.passedAccess?.(response) ?? false);
  const named = !route.names || !success || response.body.includes(route.names(target));
  const listing = success && route.listed && organization === 'own' && expected.status === 'ok' ? listMismatch(route.listed(target), cell, response.body) : '';
  const actual = success ? `${response.statusCode}` : `${response.statusCode} ${body.code ?? response.body.slice(0, 120)}`;
  const agrees = expected.status === 'ok' ? passed && named && !listing : response.statusCode === expected.status && body.code === expected.code;
  const leak = (expected.status !== 'ok' && (passed || (expected.status === 404 && response.statusCode !== 404))) || listing.includes('shows');
  return { cell, expected, actual: `${actual}${named ? '' : ' without the resource'}${listing}`, agrees, leak };
}

/** What a list showed against what it may show: '' when they agree, otherwise which ids it shows or leaves out wrongly. */
function listMismatch(candidates: readonly ListCandidate[], { route, privileged, grant }: Cell, body: string): string {
  const placement = placementOf(grant);
  const visible = (candidate: ListCandidate) => (privileged && route.privilegeListsAll === true) || visibleInList(placement, candidate);
  const shown = (candidate: ListCandidate) => body.includes(candidate.id);
  const shouldNot = candidates.filter((candidate) => shown(candidate) && !visible(candidate));
  const missing = candidates.filter((candidate) => !shown(candidate) && visible(candidate));
  const ids = (list: ListCandidate[]) => list.map((candidate) => labels.get(candidate.id) ?? `${candidate.kind} ${candidate.id}`).join(', ');
  return `${shouldNot.length ? `; shows ${ids(shouldNot)}` : ''}${missing.length ? `; leaves out ${ids(missing)}` : ''}`;
}

/** Runs the tasks with at most `limit` under way at once. */
async function limited<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

const describeCell = ({ route, privileged, grant, status, organization }: Cell) =>
  ALL_PRIVILEGES.includes(grant)
    ? `${route.key} [${grant === ADMIN_OCCUPATION ? 'ADMIN occupation' : 'platform administrator'}, status ${status}, ${organization} organisation]`
    : `${route.key} [${privileged ? route.privilege : 'no privilege'}, grant ${grant}, status ${status}, ${organization} organisation]`;

/** The other organisation: a document per status, and budgets per status in a document of their own. */
async function buildOtherWorld(): Promise<OtherWorld> {
  const documentsThere = new Map<ResourceStatus, Target>();
  for (const status of ['none', 'hidden', 'approved'] as const) documentsThere.set(status, await buildDocument(otherOrganization, status));
  const home = await buildDocument(otherOrganization, 'none');
  const budgetsThere = new Map<StatusFlag, Target>();
  for (const status of ['none', 'hidden', 'approved'] as const) budgetsThere.set(status, await buildBudget(status, home));
  budgetsThere.set('documentHidden', documentsThere.get('hidden') as Target);
  budgetsThere.set('documentApproved', documentsThere.get('approved') as Target);
  return { documents: documentsThere, budgetHome: home, budgets: budgetsThere };
}

/** The platform administrator takes the organisation's ADMIN occupation and signs in to it (without IS_ADMIN there). */
async function adminOccupationIn(organizationId: string): Promise<{ client: Client; occupationId: string }> {
  await call({ method: 'POST', url: `/api/admin/${organizationId}` });
  const occupations = (await admin.request({ method: 'GET', url: `/api/organization/${organizationId}/occupations` })).json() as { id: string; type: string }[];
  const occupationId = occupations.find((occupation) => occupation.type === 'ADMIN')?.id;
  if (!occupationId) throw new Error('no ADMIN occupation');
  const browser = new Browser(server.app);
  const signedIn = await browser.login(server.admin.email, server.admin.password, { occupationId });
  if (signedIn.statusCode !== 200) throw new Error(`ADMIN occupation sign-in: ${signedIn.statusCode} ${signedIn.body}`);
  return { client: { cookie: browser.cookie ?? '', request: (options) => browser.request(options) }, occupationId };
}

// ---- the tests ---------------------------------------------------------------------------------------

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  const accounts = accountsFixture(server.app, admin);
  ownOrganization = await created('/api/organization', {
    ...organizationPayload('Tartu Linnavalitsus'),
    enableResourceStatuses: true,
    allowResourceStatusEditing: true,
  });
  otherOrganization = await created('/api/organization', { ...organizationPayload('Narva Linnavalitsus'), enableResourceStatuses: true });
  for (const status of ['none', 'hidden', 'approved'] as const) documents.set(status, await buildDocument(ownOrganization, status));
  budgetHome = await buildDocument(ownOrganization, 'none');
  await created(`/api/classifier/${budgetHome.masterClassifierId}/item`, { code: '02', name: 'Kultuur' });
  secondSubBudget = await created(`/api/schema/${budgetHome.schemeId}/sub-budget`, subBudgetBody(budgetHome.masterClassifierId, '02'));
  ungrantedDocument = await buildDocument(ownOrganization, 'none');
  for (const status of ['none', 'hidden', 'approved'] as const) budgets.set(status, await buildBudget(status));
  // Budgets under their document's status: the hidden and the approved document's own budgets.
  budgets.set('documentHidden', documents.get('hidden') as Target);
  budgets.set('documentApproved', documents.get('approved') as Target);
  // A budget no grant kind but the organisation's reaches.
  await buildBudget('none');
  otherWorld = await buildOtherWorld();
  otherTarget = otherWorld.documents.get('none') as Target;
  // A record in every budget of both organisations (the same target object may stand for two statuses).
  const everyTarget = new Set([...documents.values(), ...budgets.values(), budgetHome, ...otherWorld.documents.values(), ...otherWorld.budgets.values()]);
  for (const target of everyTarget) target.recordId = await recordIn(target);
  for (const target of everyTarget) target.storedSettingId = await generalViewIn(target);
  const name = (target: Target, what: string) => {
    labels.set(target.documentId, `${what} document`);
    labels.set(target.schemeId, `${what} document's scheme`);
    labels.set(target.budgetId, `${what} document's budget`);
  };
  for (const [status, target] of documents) name(target, `the ${status === 'none' ? 'statusless' : status}`);
  name(budgetHome, "the budgets'");
  name(ungrantedDocument, 'the ungranted');
  for (const status of ['none', 'hidden', 'approved'] as const)
    labels.set((budgets.get(status) as Target).budgetId, `the ${status === 'none' ? 'statusless' : status} budget`);
  // Occupations whose permissions the user-administration routes address, in each organisation.
  const occupationOf = async (organizationId: string) => (await accounts.member(organizationId, ['DATA_VIEW'])).occupationId;
  organizationTarget = {
    ...(documents.get('none') as Target),
    grantedOccupationId: await occupationOf(ownOrganization),
    emptyOccupationId: await occupationOf(ownOrganization),
  };
  otherTarget.grantedOccupationId = await occupationOf(otherOrganization);
  otherTarget.emptyOccupationId = await occupationOf(otherOrganization);

  const everyDocument = [...documents.values()];
  const everyBudget = [...budgets.values()];
  const grantsFor = (grant: Grant): object[] => {
    if (grant === 'organizationRead') return [{ read: true, update: false }];
    if (grant === 'organizationUpdate') return [{ read: true, update: true }];
    return [
      // The budgets' own document is granted only where grants are inherited from documents.
      ...(grant === 'documentUpdate' ? [...everyDocument, budgetHome] : everyDocument).flatMap((target) => grantPayload(grant, target, 'document')),
      ...everyBudget.flatMap((target) => grantPayload(grant, target, 'budget')),
    ].filter((payload, index, all) => all.findIndex((other) => JSON.stringify(other) === JSON.stringify(payload)) === index);
  };
  const combinations = [null, ...PRIVILEGES].flatMap((privilege) => GRANTS.map((grant) => ({ privilege, grant })));
  await limited(combinations, 8, async ({ privilege, grant }) => {
    const made = await accounts.member(ownOrganization, ['DATA_VIEW', ...(privilege ? [privilege] : [])]);
    await grantOn(made.occupationId, grantsFor(grant));
    callers.set(callerKey(privilege, grant), { client: await login(server.app, made.email, PASSWORD), occupationId: made.occupationId });
  });
  callers.set(ADMIN_OCCUPATION, await adminOccupationIn(ownOrganization));
  callers.set(PLATFORM_ADMIN, { client: admin, occupationId: '' });
}, 180_000);
afterAll(async () => server?.close());

describe('access matrix (issue 10, point 7)', () => {
  it('covers every registered route that takes an id: in the matrix or named outside it with the reason', () => {
    const inMatrix = new Set(ROUTES.map((route) => route.key));
    const withId = apiRoutes(server.app).filter((route) => route.url.includes('/:'));
    const uncovered = withId.filter((route) => !inMatrix.has(route.key) && !(route.key in OUTSIDE_THE_MATRIX)).map((route) => route.key);
    expect(uncovered).toEqual([]);
    // Neither list names a route that is gone.
    const registered = new Set(withId.map((route) => route.key));
    expect([...inMatrix, ...Object.keys(OUTSIDE_THE_MATRIX)].filter((key) => !registered.has(key))).toEqual([]);
  });

  it('the oracle refuses and allows what the spec says (its own cases)', () => {
    const route = ROUTES.find((candidate) => candidate.key === 'GET /api/budget/:id') as RouteCase;
    const cell = (grant: Grant, status: StatusFlag, organization: Organization = 'own'): Cell => ({ route, privileged: false, grant, status, organization });
    expect(expectedAnswer(cell('read', 'none'))).toEqual(OK);
    expect(expectedAnswer(cell('none', 'none'))).toEqual(INSUFFICIENT);
    expect(expectedAnswer(cell('organizationRead', 'hidden'))).toEqual(BY_STATUS);
    expect(expectedAnswer(cell('organizationUpdate', 'none', 'other'))).toEqual(refused(404, 'BUDGET_NOT_FOUND'));
    const rename = ROUTES.find((candidate) => candidate.key === 'PUT /api/budget/:id') as RouteCase;
    expect(expectedAnswer({ route: rename, privileged: false, grant: 'update', status: 'approved', organization: 'own' })).toEqual(BY_STATUS);
    expect(expectedAnswer({ route: rename, privileged: true, grant: 'update', status: 'approved', organization: 'own' })).toEqual(OK);
    expect(expectedAnswer({ route: rename, privileged: true, grant: 'read', status: 'none', organization: 'own' })).toEqual(INSUFFICIENT);
    // The platform administrator acts in every organisation and sees hidden resources; the locks hold for them too.
    expect(expectedAnswer(cell(PLATFORM_ADMIN, 'hidden', 'other'))).toEqual(OK);
    const remove = ROUTES.find((candidate) => candidate.key === 'DELETE /api/budget/:id') as RouteCase;
    expect(expectedAnswer({ route: remove, privileged: false, grant: PLATFORM_ADMIN, status: 'approved', organization: 'other' })).toEqual(BY_STATUS);
  });

  it("answers another organisation's ids exactly as ids that do not exist (they are not even confirmed)", async () => {
    const nowhere = Object.fromEntries(
      Object.entries(otherTarget).map(([field, value]) => [field, field.endsWith('Id') ? randomUUID() : value]),
    ) as unknown as Target;
    const differences: string[] = [];
    await limited(ROUTES, 6, async (route) => {
      const caller = callers.get(callerKey(route.privilege ?? null, 'organizationUpdate')) as { client: Client };
      // A hidden resource of another organisation: neither its existence nor its status shows.
      const elsewhere = await caller.client.request(route.request(targetOf(route, 'hidden', 'other')));
      const unknown = await caller.client.request(route.request(nowhere));
      const answer = (response: LightMyRequestResponse) => `${response.statusCode} ${codeOf(response).code ?? ''}`;
      if (answer(elsewhere) !== answer(unknown)) differences.push(`${route.key}: another organisation's ${answer(elsewhere)}, unknown ${answer(unknown)}`);
    });
    expect(differences).toEqual([]);
  });

  it('answers every cell as the oracle says: 404 for another organisation, 403 without the grant or under a refusing status, the resource otherwise', async () => {
    const started = Date.now();
    const cells = ROUTES.flatMap(cellsOf);
    // Reads first, then writes: a write that leaked cannot change what a read cell is answered.
    const isRead = (cell: Cell) => cell.route.key.startsWith('GET ');
    const outcomes = [
      ...(await limited(cells.filter(isRead), 6, runCell)),
      ...(await limited(
        cells.filter((cell) => !isRead(cell)),
        6,
        runCell,
      )),
    ];
    const disagreements = outcomes.filter((outcome) => !outcome.agrees);
    const leaks = outcomes.filter((outcome) => outcome.leak);
    const routes = new Set(cells.map((cell) => cell.route.key)).size;
    const answers = new Map<string, number>();
    for (const outcome of outcomes) answers.set(describeAnswer(outcome.expected), (answers.get(describeAnswer(outcome.expected)) ?? 0) + 1);
    console.log(
      `access matrix: ${cells.length} cells over ${routes} routes, ${callers.size} occupations; ` +
        `${leaks.length} leaks, ${disagreements.length} disagreements; ${((Date.now() - started) / 1000).toFixed(1)} s\n` +
        `  expected: ${[...answers].map(([answer, count]) => `${answer} ×${count}`).join(', ')}`,
    );
    const report = (outcome: Outcome) => `${describeCell(outcome.cell)}: expected ${describeAnswer(outcome.expected)}, got ${outcome.actual}`;
    // Leaks are also disagreements; both are shown at once.
    expect({ leaks: leaks.map(report), disagreements: disagreements.filter((outcome) => !outcome.leak).map(report) }).toEqual({ leaks: [], disagreements: [] });
  }, 300_000);
});
