import { PRIVILEGES, type Privilege, type Role } from '@eelarve/shared';
import { InlineEditStore, type InlineEditSession } from '../../grid/inline-edit';
import { useInlineEditSession } from '../../grid/useInlineRowEditing';

/**
 * The row states of the roles table (spec 1, section 4): viewing, editing, new, duplicating,
 * highlighted, kept by the shared inline editing of `grid/` (`useInlineRowEditing`). Here: the
 * rows, their draft and when a draft counts as changed.
 */

/** BudgetsTab and the browser tests read the highlight time here. */

/** A row of the roles table: a saved role, or the one unsaved new or duplicated row. */
export interface RoleRow {
  /** Row id in the grid: the role id, or `new-<n>` for an unsaved row. */
  key: string;
  id: string | null;
  name: string;
  description: string;
  privilegeIds: Privilege[];
  type: Role['type'];
  inUse: boolean;
}

export interface RoleDraft {
  name: string;
  description: string;
  privilegeIds: Privilege[];
}

export type DraftField = keyof RoleDraft;

export type EditSession = InlineEditSession<RoleDraft>;

export function rowFromRole(role: Role): RoleRow {
  return {
    key: role.id,
    id: role.id,
    name: role.name,
    description: role.description,
    privilegeIds: sortPrivileges(role.privileges.map((privilege) => privilege.id)),
    type: role.type,
    inUse: role.inUse,
  };
}

export function draftOf(row: Pick<RoleRow, 'name' | 'description' | 'privilegeIds'>): RoleDraft {
  return { name: row.name, description: row.description, privilegeIds: sortPrivileges(row.privilegeIds) };
}

export const EMPTY_DRAFT: RoleDraft = { name: '', description: '', privilegeIds: [] };

/** Privileges in the catalogue order of spec 1, section 6 (the order the chips are shown in). */
export function sortPrivileges(ids: readonly Privilege[]): Privilege[] {
  return [...new Set(ids)].sort((a, b) => PRIVILEGES.indexOf(a) - PRIVILEGES.indexOf(b));
}

/** Whether saving would change anything: surrounding blanks and the order of privileges do not count. */
export function draftChanged(original: RoleDraft, draft: RoleDraft): boolean {
  if (original.name.trim() !== draft.name.trim()) return true;
  if (original.description.trim() !== draft.description.trim()) return true;
  const before = sortPrivileges(original.privilegeIds);
  const after = sortPrivileges(draft.privilegeIds);
  return before.length !== after.length || before.some((id, index) => id !== after[index]);
}

/** The row's value of a field as the grid should show or edit it: the draft while the row is edited. */
export function shownValue<F extends DraftField>(session: EditSession | null, row: RoleRow, field: F): RoleDraft[F] {
  return session && session.key === row.key ? session.draft[field] : row[field];
}

/** The roles table's edit store: cell renderers and editors subscribe to it with `useEditSession`. */
export class RoleEditStore extends InlineEditStore<RoleDraft> {
  constructor() {
    super({ changed: draftChanged });
  }
}

export const useEditSession: (store: RoleEditStore) => EditSession | null = useInlineEditSession;
