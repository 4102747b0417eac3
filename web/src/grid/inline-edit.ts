import type { PostSortRowsParams } from 'ag-grid-community';

/**
 * The pure part of inline row editing (the roles, schemes and sub-budgets tables): row states viewing,
 * editing, new and duplicating, at most one edited row at a time. The edited row's values live in
 * an `InlineEditStore` (not in the grid's data) so that save knows whether the row changed and
 * cancel restores it; the React side is `useInlineRowEditing`.
 */

/** Spec 1 and 2, section 9: new and duplicated rows stay highlighted for 6000 ms. */
export const HIGHLIGHT_MS = 6000;

export type EditMode = 'editing' | 'new' | 'duplicating';

/** A row of an inline-edited table: a saved one, or the one unsaved new or duplicated row. */
export interface InlineEditRow {
  /** Row id in the grid: the saved id, or `new-<n>` for the unsaved row. */
  key: string;
  /** Null while the row is not saved. */
  id: string | null;
}

export interface InlineEditSession<D> {
  key: string;
  mode: EditMode;
  /** The values the row had when editing began (the copied values for a duplicate). */
  original: D;
  draft: D;
  saving: boolean;
  /** Whether the draft differs from the original: only then can the row be saved. */
  changed: boolean;
  /** Message keys (or error codes) of the fields the last save attempt refused. */
  invalid: Partial<Record<keyof D, string>>;
  /** The fields the user has changed since editing began. */
  touched: Partial<Record<keyof D, true>>;
}

/** What differs between tables: when a draft counts as changed, how it is copied, what follows a change. */
export interface InlineEditRules<D> {
  changed: (original: D, draft: D) => boolean;
  /** A copy of a draft for the session (default: a shallow copy). */
  copy?: (draft: D) => D;
  /** The draft after `changes`, when one field follows another (default: `draft` as it is). */
  derive?: (draft: D, changes: Partial<D>, session: InlineEditSession<D>) => D;
}

export type InlineEditAction<D> =
  | { type: 'start'; key: string; mode: EditMode; original: D }
  | { type: 'update'; changes: Partial<D> }
  | { type: 'saving'; saving: boolean }
  | { type: 'invalid'; invalid: Partial<Record<keyof D, string>> }
  | { type: 'clear' };

/** The next session after `action` (null: no row is edited). */
export function inlineEditReducer<D extends object>(
  rules: InlineEditRules<D>,
  session: InlineEditSession<D> | null,
  action: InlineEditAction<D>,
): InlineEditSession<D> | null {
  const copy = rules.copy ?? ((draft: D) => ({ ...draft }));
  switch (action.type) {
    case 'start':
      return {
        key: action.key,
        mode: action.mode,
        original: copy(action.original),
        draft: copy(action.original),
        saving: false,
        changed: false,
        invalid: {},
        touched: {},
      };
    case 'update': {
      if (!session) return null;
      const fields = Object.keys(action.changes) as Array<keyof D>;
      const invalid = { ...session.invalid };
      const touched = { ...session.touched };
      for (const field of fields) {
        delete invalid[field];
        if (action.changes[field] !== undefined) touched[field] = true;
      }
      const next = { ...session, touched };
      const merged = { ...session.draft, ...action.changes };
      const draft = rules.derive ? rules.derive(merged, action.changes, next) : merged;
      return { ...next, draft, changed: rules.changed(session.original, draft), invalid };
    }
    case 'saving':
      return session && { ...session, saving: action.saving };
    case 'invalid':
      return session && { ...session, saving: false, invalid: action.invalid };
    case 'clear':
      return null;
  }
}

/** Whether the edited row can be saved now: it changed and is not being saved. */
export function canSave(session: InlineEditSession<unknown> | null): boolean {
  return session?.changed === true && !session.saving;
}

/** The fields a schema refused (the first message each), from its issues' first path segment. */
export function invalidFields<F extends string>(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  fields: Readonly<Record<F, unknown>>,
  fieldOfPath: (path: string) => string = (path) => path,
): Partial<Record<F, string>> {
  const invalid: Partial<Record<F, string>> = {};
  for (const issue of issues) {
    const field = fieldOfPath(String(issue.path[0])) as F;
    if (field in fields && !invalid[field]) invalid[field] = issue.message;
  }
  return invalid;
}

/** The unsaved (new or duplicated) row stays on top whatever the sort (`postSortRows`). */
export function moveUnsavedFirst<R extends InlineEditRow>({ nodes }: PostSortRowsParams<R>): void {
  const index = nodes.findIndex((node) => node.data?.id === null);
  if (index > 0) nodes.unshift(...nodes.splice(index, 1));
}

type Listener = () => void;

/** A tiny external store of the edit session: cell renderers and editors subscribe with `useInlineEditSession`. */
export class InlineEditStore<D extends object> {
  private session: InlineEditSession<D> | null = null;
  private readonly listeners = new Set<Listener>();

  constructor(private readonly rules: InlineEditRules<D>) {}

  readonly subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): InlineEditSession<D> | null => this.session;

  get current(): InlineEditSession<D> | null {
    return this.session;
  }

  start(key: string, mode: EditMode, original: D): void {
    this.dispatch({ type: 'start', key, mode, original });
  }

  update(changes: Partial<D>): void {
    this.dispatch({ type: 'update', changes });
  }

  setSaving(saving: boolean): void {
    this.dispatch({ type: 'saving', saving });
  }

  setInvalid(invalid: Partial<Record<keyof D, string>>): void {
    this.dispatch({ type: 'invalid', invalid });
  }

  clear(): void {
    this.dispatch({ type: 'clear' });
  }

  private dispatch(action: InlineEditAction<D>): void {
    const next = inlineEditReducer(this.rules, this.session, action);
    // As before the reducer: a change of nothing (no session) notifies no one, a clear always does.
    if (next === this.session && action.type !== 'clear') return;
    this.session = next;
    for (const listener of this.listeners) listener();
  }
}
