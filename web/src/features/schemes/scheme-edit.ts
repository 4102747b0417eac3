import { deriveFieldName, type Scheme, type SchemeInput } from '@eelarve/shared';
import { useSyncExternalStore } from 'react';

/**
 * Row states of the schemes table (spec 2, section 4): viewing, editing, new, duplicating,
 * highlighted. One row is edited at a time; its values live here so that save knows whether
 * the row changed and cancel restores it (the approach of the roles page).
 */
export interface SchemeRow {
  /** Grid row id: the scheme id, or `new-<n>` for the unsaved row. */
  key: string;
  id: string | null;
  name: string;
  fieldName: string;
  description: string;
  main: string[];
  secondary: string[];
  displayOrder: number;
  subBudgetsCount: number;
}

export type SchemeDraft = Pick<SchemeRow, 'name' | 'fieldName' | 'description' | 'main' | 'secondary'>;
export type SchemeDraftField = keyof SchemeDraft;
export type EditMode = 'editing' | 'new' | 'duplicating';

export interface SchemeEditSession {
  key: string;
  mode: EditMode;
  original: SchemeDraft;
  draft: SchemeDraft;
  /** A new scheme's technical name follows its name until the user types one. */
  fieldNameTouched: boolean;
  saving: boolean;
  changed: boolean;
  invalid: Partial<Record<SchemeDraftField, string>>;
}

export function rowFromScheme(scheme: Scheme): SchemeRow {
  return {
    key: scheme.id,
    id: scheme.id,
    name: scheme.name,
    fieldName: scheme.fieldName,
    description: scheme.description,
    main: scheme.classifierList.filter((entry) => entry.type === 'MAIN').map((entry) => entry.classifierId),
    secondary: scheme.classifierList.filter((entry) => entry.type === 'SECONDARY').map((entry) => entry.classifierId),
    displayOrder: scheme.displayOrder,
    subBudgetsCount: scheme.subBudgetsCount,
  };
}

export const draftOf = (row: SchemeDraft): SchemeDraft => ({
  name: row.name,
  fieldName: row.fieldName,
  description: row.description,
  main: [...row.main],
  secondary: [...row.secondary],
});

export const EMPTY_SCHEME_DRAFT: SchemeDraft = { name: '', fieldName: '', description: '', main: [], secondary: [] };

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().join(',') === [...b].sort().join(',');

export function schemeDraftChanged(original: SchemeDraft, draft: SchemeDraft): boolean {
  return (
    original.name.trim() !== draft.name.trim() ||
    original.fieldName.trim() !== draft.fieldName.trim() ||
    original.description.trim() !== draft.description.trim() ||
    !sameSet(original.main, draft.main) ||
    !sameSet(original.secondary, draft.secondary)
  );
}

/** The request body of a draft (main classifiers first). */
export function schemePayload(draft: SchemeDraft, displayOrder?: number): SchemeInput {
  return {
    name: draft.name.trim(),
    fieldName: draft.fieldName.trim(),
    description: draft.description.trim(),
    ...(displayOrder === undefined ? {} : { displayOrder }),
    classifierList: [
      ...draft.main.map((classifierId) => ({ classifierId, type: 'MAIN' as const })),
      ...draft.secondary.map((classifierId) => ({ classifierId, type: 'SECONDARY' as const })),
    ],
  };
}

type Listener = () => void;

export class SchemeEditStore {
  private session: SchemeEditSession | null = null;
  private readonly listeners = new Set<Listener>();

  readonly subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): SchemeEditSession | null => this.session;

  get current(): SchemeEditSession | null {
    return this.session;
  }

  start(key: string, mode: EditMode, original: SchemeDraft, draft: SchemeDraft = original): void {
    const copy = draftOf(draft);
    this.set({ key, mode, original: draftOf(original), draft: copy, fieldNameTouched: mode === 'editing', saving: false, changed: schemeDraftChanged(original, copy), invalid: {} });
  }

  update(changes: Partial<SchemeDraft>): void {
    const session = this.session;
    if (!session) return;
    const invalid = { ...session.invalid };
    for (const field of Object.keys(changes) as SchemeDraftField[]) delete invalid[field];
    const fieldNameTouched = session.fieldNameTouched || changes.fieldName !== undefined;
    const draft = { ...session.draft, ...changes };
    if (!fieldNameTouched && changes.name !== undefined) draft.fieldName = deriveFieldName(changes.name);
    this.set({ ...session, draft, fieldNameTouched, changed: schemeDraftChanged(session.original, draft), invalid });
  }

  setSaving(saving: boolean): void {
    if (this.session) this.set({ ...this.session, saving });
  }

  setInvalid(invalid: SchemeEditSession['invalid']): void {
    if (this.session) this.set({ ...this.session, saving: false, invalid });
  }

  clear(): void {
    this.set(null);
  }

  private set(session: SchemeEditSession | null): void {
    this.session = session;
    for (const listener of this.listeners) listener();
  }
}

export function useSchemeEditSession(store: SchemeEditStore): SchemeEditSession | null {
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}
