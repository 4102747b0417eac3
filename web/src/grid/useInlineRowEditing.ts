import type { RowClassRules } from 'ag-grid-community';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { canSave, type EditMode, HIGHLIGHT_MS, type InlineEditRow, type InlineEditSession, type InlineEditStore, invalidFields } from './inline-edit';

/** The edit session of `store`, re-rendering on each change (for the page and its cells). */
export function useInlineEditSession<D extends object>(store: InlineEditStore<D>): InlineEditSession<D> | null {
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}

/** The edit session when it is `row`'s: the cells of the row being edited show their editors. */
export function useRowEditSession<D extends object>(store: InlineEditStore<D>, row: { key: string } | undefined): InlineEditSession<D> | null {
  const session = useInlineEditSession(store);
  return session && row && session.key === row.key ? session : null;
}

/** Enter saves and Escape cancels in a row's editors; the grid does not see the row's keys. */
export function rowEditorKeys(actions: { onSave: () => void; onCancel: () => void }) {
  return (event: { key: string; stopPropagation: () => void }) => {
    if (event.key === 'Enter') actions.onSave();
    if (event.key === 'Escape') actions.onCancel();
    event.stopPropagation();
  };
}

/** Rows highlighted for `HIGHLIGHT_MS` after `highlight(key)` (new, duplicated, created or imported rows). */
export function useRowHighlight(): { highlighted: ReadonlySet<string>; highlight: (key: string) => void } {
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(() => new Set());
  const timers = useRef(new Set<number>());

  useEffect(() => {
    const pendingTimers = timers.current;
    return () => {
      for (const timer of pendingTimers) window.clearTimeout(timer);
    };
  }, []);

  const highlight = useCallback((key: string) => {
    setHighlighted((current) => new Set(current).add(key));
    const timer = window.setTimeout(() => {
      timers.current.delete(timer);
      setHighlighted((current) => {
        const next = new Set(current);
        next.delete(key);
        return next;
      });
    }, HIGHLIGHT_MS);
    timers.current.add(timer);
  }, []);

  return { highlighted, highlight };
}

/** A schema's `safeParse` result, as far as saving needs it. */
export type DraftParseResult<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };

export interface InlineRowEditingOptions<R extends InlineEditRow, D extends object> {
  /** Makes the table's edit store (called once). */
  createStore: () => InlineEditStore<D>;
  /** The saved rows, in the order they are shown. */
  saved: R[];
  /** After a session started (e.g. to open the grid's editors). */
  onStart?: (row: R, mode: EditMode) => void;
  /** After the session was cleared, before the unsaved row goes (e.g. to close the grid's editors). */
  onFinish?: (key: string | undefined) => void;
}

export interface SaveRequest<D extends object, F extends keyof D & string, T> {
  /** The schema check of the draft (`schema.safeParse(...)`). */
  parse: (draft: D) => DraftParseResult<T>;
  /** The fields whose refusals are shown (issues of other paths are left out). */
  fields: Readonly<Record<F, unknown>>;
  /** The field of an issue path's first segment, where they differ. */
  fieldOfPath?: (path: string) => string;
  /** Sends the checked row (it is marked as saving). */
  send: (editing: InlineEditSession<D>, data: T) => void;
}

/**
 * Inline row editing of an AG Grid table (roles, schemes, sub-budgets): the rows are viewed, edited, new or
 * duplicated; one row is edited at a time, and only a changed row can be saved. A new or duplicated
 * row is shown first until it is saved or cancelled, and it (and, once saved, the created row) is
 * highlighted for `HIGHLIGHT_MS`. The session lives in an external store that the cells subscribe to.
 */
export function useInlineRowEditing<R extends InlineEditRow, D extends object>({ createStore, saved, onStart, onFinish }: InlineRowEditingOptions<R, D>) {
  const [store] = useState(createStore);
  const session = useInlineEditSession(store);
  const [pending, setPending] = useState<R | null>(null);
  const { highlighted, highlight } = useRowHighlight();
  const newRows = useRef(0);
  // The page's callbacks of the latest render (they may use its refs and grid API).
  const callbacks = useRef({ onStart, onFinish });
  callbacks.current = { onStart, onFinish };

  /** The saved rows with the unsaved row first. */
  const rows = useMemo(() => (pending ? [pending, ...saved] : saved), [saved, pending]);

  /** A grid key for a new unsaved row: `new-<n>`. */
  const newKey = useCallback(() => {
    newRows.current += 1;
    return `new-${newRows.current}`;
  }, []);

  /** Starts editing `row` (unless a row is edited already); a new or duplicated row is added and highlighted. */
  const start = useCallback(
    (row: R, mode: EditMode, original: D) => {
      if (store.current) return;
      store.start(row.key, mode, original);
      if (mode !== 'editing') {
        setPending(row);
        highlight(row.key);
      }
      callbacks.current.onStart?.(row, mode);
    },
    [store, highlight],
  );

  /** Back to viewing: the session ends and an unsaved row disappears. */
  const finish = useCallback(() => {
    const key = store.current?.key;
    store.clear();
    callbacks.current.onFinish?.(key);
    setPending(null);
  }, [store]);

  /** After a successful save: back to viewing; a created row is highlighted under its id. */
  const finishSaved = useCallback(
    (editing: InlineEditSession<D>, createdId: string | null | undefined) => {
      finish();
      if (editing.mode !== 'editing' && createdId) highlight(createdId);
    },
    [finish, highlight],
  );

  /** Saves the edited row if it can be saved: refused fields are marked, else the row is sent. */
  const submit = useCallback(
    <F extends keyof D & string, T>({ parse, fields, fieldOfPath, send }: SaveRequest<D, F, T>) => {
      const editing = store.current;
      if (!editing || !canSave(editing)) return;
      const parsed = parse(editing.draft);
      if (!parsed.success) {
        store.setInvalid(invalidFields(parsed.error.issues, fields, fieldOfPath) as InlineEditSession<D>['invalid']);
        return;
      }
      store.setSaving(true);
      send(editing, parsed.data);
    },
    [store],
  );

  const editingKey = session?.key ?? null;
  const editingMode = session?.mode ?? null;
  /** The row classes of the states: highlighted, and the edited row's mode. */
  const rowClassRules = useMemo<RowClassRules<R>>(
    () => ({
      'row-highlighted': ({ data }) => data !== undefined && highlighted.has(data.key),
      'row-state-editing': ({ data }) => data?.key === editingKey && editingMode === 'editing',
      'row-state-new': ({ data }) => data?.key === editingKey && editingMode === 'new',
      'row-state-duplicating': ({ data }) => data?.key === editingKey && editingMode === 'duplicating',
    }),
    [highlighted, editingKey, editingMode],
  );

  return { store, session, rows, highlight, newKey, start, finish, finishSaved, submit, rowClassRules };
}
