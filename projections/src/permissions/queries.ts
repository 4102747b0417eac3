import { groupBy } from '@eelarve/shared';
import { sql } from 'kysely';
import type { ReadDatabase } from '../read-models';
import { resourceKey } from './projector';

export type PermissionAction = 'read' | 'update';

/** A resource in the chain organisation → document → budget → sub-budget (as seen from its budget). */
export interface PermissionResource {
  organizationId: string;
  documentId?: string | null;
  budgetId?: string | null;
  subBudgetId?: string | null;
}

export interface Flags {
  read: boolean;
  update: boolean;
}

/** Spec 1, section 3, Permission: `read`/`update` given on the resource itself, `inherited*` from above. */
export interface EffectivePermission {
  occupationId: string;
  documentId: string | null;
  budgetId: string | null;
  subBudgetId: string | null;
  read: boolean;
  update: boolean;
  inheritedRead: boolean;
  inheritedUpdate: boolean;
}

export interface GrantRow {
  occupation_id: string;
  document_id: string | null;
  budget_id: string | null;
  sub_budget_id: string | null;
  read: boolean;
  update: boolean;
}

const NONE: Flags = { read: false, update: false };
const either = (flags: readonly Flags[]): Flags => ({ read: flags.some((f) => f.read || f.update), update: flags.some((f) => f.update) });

/** Keys of the resource and of everything above it, the resource's own key first. */
function chainKeys(resource: PermissionResource): string[] {
  const { documentId = null, budgetId = null, subBudgetId = null } = resource;
  const keys = [resourceKey(null, null, null)];
  if (documentId) keys.push(resourceKey(documentId, null, null));
  if (documentId && budgetId) keys.push(resourceKey(documentId, budgetId, null));
  if (documentId && budgetId && subBudgetId) keys.push(resourceKey(documentId, budgetId, subBudgetId));
  return keys.reverse();
}

/** One occupation's explicit grant on the resource and what it inherits from above, in one query. */
export async function effectiveFlags(read: ReadDatabase, occupationId: string, resource: PermissionResource): Promise<{ own: Flags; inherited: Flags }> {
  const [ownKey, ...aboveKeys] = chainKeys(resource);
  const rows = await read
    .selectFrom('resource_permissions')
    .select(['resource_key', 'read', 'update'])
    .where('occupation_id', '=', occupationId)
    .where('organization_id', '=', resource.organizationId)
    .where('resource_key', 'in', [ownKey as string, ...aboveKeys])
    .execute();
  const byKey = new Map(rows.map((row) => [row.resource_key, { read: row.read, update: row.update }]));
  return { own: byKey.get(ownKey as string) ?? NONE, inherited: either(aboveKeys.map((key) => byKey.get(key) ?? NONE)) };
}

/**
 * Whether anything below the resource is granted to the occupation: a budget or sub-budget of a
 * document, a sub-budget of a budget. It makes the resource visible, to navigate down to what was
 * granted, without granting the resource itself.
 */
export async function grantedBelow(read: ReadDatabase, occupationId: string, resource: PermissionResource): Promise<boolean> {
  if (!resource.documentId || resource.subBudgetId) return false;
  let query = read.selectFrom('resource_permissions').select(sql`1`.as('one')).where('occupation_id', '=', occupationId);
  query = resource.budgetId
    ? query.where('budget_id', '=', resource.budgetId).where('sub_budget_id', 'is not', null)
    : query.where('document_id', '=', resource.documentId).where('budget_id', 'is not', null);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/** One resource as the occupation's grants see it: read and update, own or inherited, and read through a grant below. */
export async function grantsOn(read: ReadDatabase, occupationId: string, resource: PermissionResource): Promise<Flags> {
  const [{ own, inherited }, below] = await Promise.all([effectiveFlags(read, occupationId, resource), grantedBelow(read, occupationId, resource)]);
  const flags = either([own, inherited]);
  return { read: flags.read || below, update: flags.update };
}

/** Grants of one occupation summed per level, for a list: what each document (or each budget of one document) gets. */
export interface LevelGrants {
  organization: Flags;
  /** Per document (or, for one document, that document): its own grant. */
  documents: Map<string, Flags>;
  /** Per budget: its own grant. */
  budgets: Map<string, Flags>;
  /** Documents with a grant on one of their budgets or sub-budgets. */
  documentsWithGrantsBelow: Set<string>;
  /** Budgets with a grant on one of their sub-budgets. */
  budgetsWithGrantsBelow: Set<string>;
}

/**
 * The occupation's grants in the organisation (or in one document and above it), summed per level
 * in one query: the fold a list needs without a question per row.
 */
export async function levelGrants(read: ReadDatabase, occupationId: string, organizationId: string, documentId: string | null): Promise<LevelGrants> {
  let query = read
    .selectFrom('resource_permissions')
    .select((eb) => [
      'document_id',
      'budget_id',
      sql<boolean>`sub_budget_id is not null`.as('on_sub_budget'),
      eb.fn<boolean>('bool_or', ['read']).as('read'),
      eb.fn<boolean>('bool_or', ['update']).as('update'),
    ])
    .where('occupation_id', '=', occupationId)
    .where('organization_id', '=', organizationId);
  if (documentId) query = query.where((eb) => eb.or([eb('document_id', 'is', null), eb('document_id', '=', documentId)]));
  const rows = await query.groupBy(['document_id', 'budget_id', sql`sub_budget_id is not null`]).execute();
  const grants: LevelGrants = {
    organization: NONE,
    documents: new Map(),
    budgets: new Map(),
    documentsWithGrantsBelow: new Set(),
    budgetsWithGrantsBelow: new Set(),
  };
  for (const row of rows) {
    const flags = { read: row.read || row.update, update: row.update };
    if (!row.document_id) grants.organization = flags;
    else if (!row.budget_id) grants.documents.set(row.document_id, flags);
    else {
      grants.documentsWithGrantsBelow.add(row.document_id);
      if (row.on_sub_budget) grants.budgetsWithGrantsBelow.add(row.budget_id);
      else grants.budgets.set(row.budget_id, flags);
    }
  }
  return grants;
}

/** A document's grants as `levelGrants` summed them: own or inherited from the organisation, or read through a grant below. */
export function documentGrant(grants: LevelGrants, documentId: string): Flags {
  const flags = either([grants.organization, grants.documents.get(documentId) ?? NONE]);
  return { read: flags.read || grants.documentsWithGrantsBelow.has(documentId), update: flags.update };
}

/** A budget's grants as `levelGrants` summed them for its document. */
export function budgetGrant(grants: LevelGrants, documentId: string, budgetId: string): Flags {
  const flags = either([grants.organization, grants.documents.get(documentId) ?? NONE, grants.budgets.get(budgetId) ?? NONE]);
  return { read: flags.read || grants.budgetsWithGrantsBelow.has(budgetId), update: flags.update };
}

/** The occupation's organisation-level grant (inherited by everything in its documents). */
export async function organizationGrant(read: ReadDatabase, occupationId: string, organizationId: string): Promise<Flags> {
  return (await effectiveFlags(read, occupationId, { organizationId })).own;
}

/** The occupation's grants on sub-budgets of one budget, by sub-budget id. */
export async function subBudgetGrantsOf(read: ReadDatabase, occupationId: string, budgetId: string): Promise<Map<string, Flags>> {
  const rows = await read
    .selectFrom('resource_permissions')
    .select(['sub_budget_id', 'read', 'update'])
    .where('occupation_id', '=', occupationId)
    .where('budget_id', '=', budgetId)
    .where('sub_budget_id', 'is not', null)
    .execute();
  return new Map(rows.map((row) => [row.sub_budget_id as string, { read: row.read, update: row.update }]));
}

/**
 * Sub-budget ids granted to the occupation one by one under a budget (for a caller who does not
 * read the budget as a whole): the planner starts from the few grants, not from the scheme's
 * 10,000 sub-budgets.
 */
export function subBudgetIdsGrantedOneByOne(read: ReadDatabase, occupationId: string, budgetId: string, action: PermissionAction) {
  const granted = read
    .selectFrom('resource_permissions as g')
    .select('g.sub_budget_id')
    .where('g.occupation_id', '=', occupationId)
    .where('g.budget_id', '=', budgetId)
    .where('g.sub_budget_id', 'is not', null)
    .where(action === 'read' ? 'g.read' : 'g.update', '=', true);
  return read
    .selectFrom('sub_budgets as s')
    .select('s.id')
    .where('s.id', 'in', granted as never);
}

/** Explicit grants of occupations in a document, and their organisation-level grants. */
export function grantsReaching(read: ReadDatabase, organizationId: string, documentId: string | null, occupationId?: string): Promise<GrantRow[]> {
  let query = read
    .selectFrom('resource_permissions')
    .select(['occupation_id', 'document_id', 'budget_id', 'sub_budget_id', 'read', 'update'])
    .where('organization_id', '=', organizationId)
    .where((eb) => (documentId ? eb.or([eb('document_id', 'is', null), eb('document_id', '=', documentId)]) : eb('budget_id', 'is', null)));
  if (occupationId) query = query.where('occupation_id', '=', occupationId);
  return query.orderBy('occupation_id').orderBy('resource_key').execute();
}

export interface ResourceTree {
  documentIds: readonly string[];
  /** Live budgets of the document (when one is asked for). */
  budgetIds: readonly string[];
  /** Live sub-budgets of the document: grants on deleted ones are left out. */
  subBudgetIds: ReadonlySet<string>;
}

/**
 * Folds one occupation's explicit grants down the tree: the organisation row, each document (or,
 * for one document, the document, each budget and every explicitly granted sub-budget), with
 * what each inherits. Rows granting nothing at all are left out unless `all`.
 */
export function effectivePermissions(
  occupationId: string,
  grants: readonly GrantRow[],
  tree: ResourceTree,
  documentId: string | null,
  all = true,
): EffectivePermission[] {
  const mine = grants.filter((g) => g.occupation_id === occupationId);
  const own = new Map(mine.map((g) => [resourceKey(g.document_id, g.budget_id, g.sub_budget_id), g as Flags]));
  const liveSubBudgetGrants = mine.filter((g) => g.budget_id && g.sub_budget_id && tree.subBudgetIds.has(g.sub_budget_id));
  const subBudgetGrants = new Map(
    [...groupBy(liveSubBudgetGrants, (g) => g.budget_id as string)].map(([budgetId, group]) => [budgetId, group.map((g) => g.sub_budget_id as string)]),
  );
  const flagsOf = (d: string | null, b: string | null, s: string | null) => own.get(resourceKey(d, b, s)) ?? NONE;
  const row = (d: string | null, b: string | null, s: string | null, inherited: Flags): EffectivePermission => {
    const flags = flagsOf(d, b, s);
    return {
      occupationId,
      documentId: d,
      budgetId: b,
      subBudgetId: s,
      read: flags.read,
      update: flags.update,
      inheritedRead: inherited.read,
      inheritedUpdate: inherited.update,
    };
  };
  const organization = flagsOf(null, null, null);
  const rows = [row(null, null, null, NONE)];
  if (!documentId) {
    rows.push(...tree.documentIds.map((d) => row(d, null, null, organization)));
  } else {
    const aboveBudgets = either([organization, flagsOf(documentId, null, null)]);
    rows.push(row(documentId, null, null, organization));
    for (const budgetId of tree.budgetIds) {
      rows.push(row(documentId, budgetId, null, aboveBudgets));
      const aboveSubBudgets = either([aboveBudgets, flagsOf(documentId, budgetId, null)]);
      rows.push(...(subBudgetGrants.get(budgetId) ?? []).map((subBudgetId) => row(documentId, budgetId, subBudgetId, aboveSubBudgets)));
    }
  }
  return all ? rows : rows.filter((r) => r.read || r.update || r.inheritedRead || r.inheritedUpdate);
}

/**
 * The document tree the fold needs: the organisation's documents, or one document's budgets and
 * its live sub-budgets (those the occupation has grants on, when one is named).
 */
export async function resourceTree(read: ReadDatabase, organizationId: string, documentId: string | null, occupationId?: string): Promise<ResourceTree> {
  if (!documentId) {
    const documents = await read.selectFrom('documents').select('id').where('organization_id', '=', organizationId).orderBy('id').execute();
    return { documentIds: documents.map((d) => d.id), budgetIds: [], subBudgetIds: new Set() };
  }
  let subBudgets = read.selectFrom('sub_budgets').select('id').where('document_id', '=', documentId);
  if (occupationId) {
    const granted = read
      .selectFrom('resource_permissions')
      .select('sub_budget_id')
      .where('occupation_id', '=', occupationId)
      .where('document_id', '=', documentId)
      .where('sub_budget_id', 'is not', null);
    subBudgets = subBudgets.where('id', 'in', granted as never);
  }
  const [budgetRows, subBudgetRows] = await Promise.all([
    read.selectFrom('budgets').select('id').where('document_id', '=', documentId).orderBy('sort_order', 'desc').orderBy('created_at').orderBy('id').execute(),
    subBudgets.execute(),
  ]);
  return { documentIds: [documentId], budgetIds: budgetRows.map((b) => b.id), subBudgetIds: new Set(subBudgetRows.map((row) => row.id)) };
}

/** GET api/occupation/{id}/permissions?documentId=: the occupation's effective permissions. */
export async function occupationPermissions(
  read: ReadDatabase,
  organizationId: string,
  occupationId: string,
  documentId: string | null,
): Promise<EffectivePermission[]> {
  const [grants, tree] = await Promise.all([
    grantsReaching(read, organizationId, documentId, occupationId),
    resourceTree(read, organizationId, documentId, occupationId),
  ]);
  return effectivePermissions(occupationId, grants, tree, documentId);
}

/** GET api/document/{id}/permissions: every occupation's effective permissions that grant something in the document. */
export async function documentPermissions(read: ReadDatabase, organizationId: string, documentId: string): Promise<EffectivePermission[]> {
  const [grants, tree] = await Promise.all([grantsReaching(read, organizationId, documentId), resourceTree(read, organizationId, documentId)]);
  return [...groupBy(grants, (grant) => grant.occupation_id)].flatMap(([occupationId, own]) =>
    effectivePermissions(occupationId, own, tree, documentId, false),
  );
}

/** Every explicit grant of an occupation (or only in the documents listed, null for the organisation), stream by stream. */
export async function occupationGrantsByDocument(
  read: ReadDatabase,
  occupationId: string,
  only?: readonly (string | null)[],
): Promise<Map<string | null, GrantRow[]>> {
  let query = read
    .selectFrom('resource_permissions')
    .select(['occupation_id', 'document_id', 'budget_id', 'sub_budget_id', 'read', 'update'])
    .where('occupation_id', '=', occupationId);
  if (only) {
    const documentIds = only.filter((id) => id !== null);
    query = query.where((eb) =>
      eb.or([...(only.includes(null) ? [eb('document_id', 'is', null)] : []), ...(documentIds.length ? [eb('document_id', 'in', documentIds)] : [])]),
    );
  }
  const rows = await query.orderBy('resource_key').execute();
  return groupBy(rows, (row) => row.document_id);
}

export interface ChainRow {
  id: string;
  document_id: string;
  organization_id: string;
}

/** Where the budgets and sub-budgets a change names belong, to check the chain before anything is written. */
export async function chainFacts(
  read: ReadDatabase,
  budgetIds: readonly string[],
  subBudgetIds: readonly string[],
): Promise<{ budgets: ChainRow[]; subBudgets: ChainRow[] }> {
  const [budgets, subBudgets] = await Promise.all([
    budgetIds.length ? read.selectFrom('budgets').select(['id', 'document_id', 'organization_id']).where('id', 'in', budgetIds).execute() : [],
    subBudgetIds.length ? read.selectFrom('sub_budgets').select(['id', 'document_id', 'organization_id']).where('id', 'in', subBudgetIds).execute() : [],
  ]);
  return { budgets, subBudgets };
}
