import type { Permission, PermissionInput } from '@eelarve/shared';

/**
 * What a permission row shows and which change a toggle sends (spec 1, section 6): read and update
 * given on the resource itself or inherited from above; an inherited grant is shown dimmed and
 * cannot be removed below where it was given; update implies read in the display.
 */

/** A resource of the chain organisation → document → budget → sub-budget (seen from its budget). */
export interface ResourceRef {
  documentId: string | null;
  budgetId: string | null;
  subBudgetId: string | null;
}

export const ORGANIZATION: ResourceRef = { documentId: null, budgetId: null, subBudgetId: null };

export interface Flags {
  read: boolean;
  update: boolean;
}

export interface Grant {
  own: Flags;
  inherited: Flags;
}

const NONE: Flags = { read: false, update: false };
export const NO_GRANT: Grant = { own: NONE, inherited: NONE };

const either = (a: Flags, b: Flags): Flags => ({ read: a.read || a.update || b.read || b.update, update: a.update || b.update });

export const resourceKey = (resource: ResourceRef): string => [resource.documentId, resource.budgetId, resource.subBudgetId].map((id) => id ?? '').join('/');

const grantOf = (row: Permission): Grant => ({
  own: { read: row.read, update: row.update },
  inherited: { read: row.inheritedRead, update: row.inheritedUpdate },
});

/**
 * One occupation's grants by resource, from its permission rows. The server lists sub-budgets
 * only where they are granted one by one; any other sub-budget inherits from its budget.
 */
export function grantIndex(rows: readonly Permission[]): (resource: ResourceRef) => Grant {
  const byKey = new Map(rows.map((row) => [resourceKey(row), grantOf(row)]));
  return (resource) => {
    const found = byKey.get(resourceKey(resource));
    if (found) return found;
    if (!resource.subBudgetId) return NO_GRANT;
    const budget = byKey.get(resourceKey({ ...resource, subBudgetId: null }));
    return budget ? { own: NONE, inherited: either(budget.own, budget.inherited) } : NO_GRANT;
  };
}

/** Every occupation's grant lookup, from GET api/document/{id}/permissions (rows of all occupations). */
export function grantsByOccupation(rows: readonly Permission[]): Map<string, (resource: ResourceRef) => Grant> {
  const grouped = new Map<string, Permission[]>();
  for (const row of rows) grouped.set(row.occupationId, [...(grouped.get(row.occupationId) ?? []), row]);
  return new Map([...grouped].map(([occupationId, own]) => [occupationId, grantIndex(own)]));
}

/** What the read and update boxes of a row show and whether each may be changed. */
export interface ToggleState {
  read: boolean;
  update: boolean;
  /** Read comes from above (dimmed, locked). */
  readInherited: boolean;
  updateInherited: boolean;
  /** Read is implied by update (locked while update is on). */
  readImplied: boolean;
}

export function toggleState({ own, inherited }: Grant): ToggleState {
  const effective = either(own, inherited);
  const readInherited = inherited.read || inherited.update;
  return {
    read: effective.read,
    update: effective.update,
    readInherited,
    updateInherited: inherited.update,
    readImplied: effective.update && !readInherited,
  };
}

export const canToggleRead = (state: ToggleState): boolean => !state.readInherited && !state.readImplied;
export const canToggleUpdate = (state: ToggleState): boolean => !state.updateInherited;

/** The grant a read toggle sends: read alone, or nothing. */
export function readChange(resource: ResourceRef, checked: boolean): PermissionInput {
  return { ...resource, read: checked, update: false };
}

/**
 * The grant an update toggle sends: update (with read), or, when taken away, read stays where
 * the row still reads (inherited read cannot be removed below, so it is sent again).
 */
export function updateChange(resource: ResourceRef, checked: boolean, state: ToggleState): PermissionInput {
  if (checked) return { ...resource, read: true, update: true };
  return { ...resource, read: state.readInherited, update: false };
}

/** The header toggle is on when every row shown has update. */
export const allUpdate = (grants: readonly Grant[]): boolean => grants.length > 0 && grants.every((grant) => toggleState(grant).update);

/**
 * The header toggle's bulk change over the rows shown: update for every row that lacks it, or,
 * when all have it, every grant given on a row removed. Rows whose grants are inherited from a
 * resource outside the change keep them (`keepsInherited`): nothing is sent for them.
 */
export function bulkChange(
  rows: readonly { resource: ResourceRef; grant: Grant }[],
  keepsInherited: (row: { resource: ResourceRef; grant: Grant }) => boolean,
): PermissionInput[] {
  if (!allUpdate(rows.map((row) => row.grant))) {
    return rows.filter((row) => !toggleState(row.grant).update).map((row) => ({ ...row.resource, read: true, update: true }));
  }
  return rows
    .filter((row) => (row.grant.own.read || row.grant.own.update) && !keepsInherited(row))
    .map((row) => ({ ...row.resource, read: false, update: false }));
}
