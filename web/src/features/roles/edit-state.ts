import { PRIVILEGES, type Privilege, type Role } from '@eelarve/shared';
import { useSyncExternalStore } from 'react';

/**
 * The row states of the roles table (spec 1, section 4): viewing, editing, new, duplicating,
 * highlighted. At most one row is edited at a time; its values live here (not in the grid's
 * data) so that the save button knows whether the row changed and cancel can restore it.
 */

/** Spec 1, section 9: new and duplicated rows stay highlighted for 6000 ms. */
export const HIGHLIGHT_MS = 6000;

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

export type EditMode = 'editing' | 'new' | 'duplicating';

export interface RoleDraft {
  name: string;
  description: string;
  privilegeIds: Privilege[];
}

export type DraftField = keyof RoleDraft;

export interface EditSession {
  key: string;
  mode: EditMode;
  /** The values the row had when editing began (the copied values for a duplicate). */
  original: RoleDraft;
  draft: RoleDraft;
  saving: boolean;
  /** Whether the draft differs from the original: only then can the row be saved. */
  changed: boolean;
  /** Message keys (or error codes) of the fields the last save attempt refused. */
  invalid: Partial<Record<DraftField, string>>;
}

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

type Listener = () => void;

/** A tiny external store: cell renderers and editors subscribe to it with `useEditSession`. */
export class RoleEditStore {
  private session: EditSession | null = null;
  private readonly listeners = new Set<Listener>();

  readonly subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): EditSession | null => this.session;

  get current(): EditSession | null {
    return this.session;
  }

  start(key: string, mode: EditMode, original: RoleDraft): void {
    this.set({ key, mode, original, draft: { ...original }, saving: false, changed: false, invalid: {} });
  }

  update(changes: Partial<RoleDraft>): void {
    if (!this.session) return;
    const invalid = { ...this.session.invalid };
    for (const field of Object.keys(changes) as DraftField[]) delete invalid[field];
    const draft = { ...this.session.draft, ...changes };
    this.set({ ...this.session, draft, changed: draftChanged(this.session.original, draft), invalid });
  }

  setSaving(saving: boolean): void {
    if (this.session) this.set({ ...this.session, saving });
  }

  setInvalid(invalid: EditSession['invalid']): void {
    if (this.session) this.set({ ...this.session, saving: false, invalid });
  }

  clear(): void {
    this.set(null);
  }

  private set(session: EditSession | null): void {
    this.session = session;
    for (const listener of this.listeners) listener();
  }
}

export function useEditSession(store: RoleEditStore): EditSession | null {
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}
