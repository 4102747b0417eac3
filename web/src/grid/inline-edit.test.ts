import { describe, expect, it, vi } from 'vitest';
import { canSave, type InlineEditRules, InlineEditStore, inlineEditReducer, invalidFields } from './inline-edit';

interface Draft {
  name: string;
  code: string;
}

const rules: InlineEditRules<Draft> = {
  changed: (original, draft) => original.name.trim() !== draft.name.trim() || original.code !== draft.code,
  // A new row's code follows its name until the code is typed.
  derive: (draft, changes, session) =>
    session.mode !== 'editing' && !session.touched.code && changes.name !== undefined ? { ...draft, code: changes.name.toLowerCase() } : draft,
};

describe('inline row editing', () => {
  it('starts unchanged, knows when the row changed and clears a field’s refusal when it is typed in', () => {
    let session = inlineEditReducer(rules, null, { type: 'start', key: 'a', mode: 'editing', original: { name: 'A', code: 'a' } });
    expect(session).toMatchObject({ key: 'a', mode: 'editing', changed: false, saving: false, invalid: {} });
    expect(canSave(session)).toBe(false);

    session = inlineEditReducer(rules, session, { type: 'update', changes: { name: 'A ' } });
    expect(session?.changed).toBe(false);
    session = inlineEditReducer(rules, session, { type: 'invalid', invalid: { name: 'validation.required', code: 'validation.required' } });
    session = inlineEditReducer(rules, session, { type: 'update', changes: { name: 'B' } });
    expect(session?.draft).toEqual({ name: 'B', code: 'a' });
    expect(session?.invalid).toEqual({ code: 'validation.required' });
    expect(canSave(session)).toBe(true);

    session = inlineEditReducer(rules, session, { type: 'saving', saving: true });
    expect(canSave(session)).toBe(false);
    // A refusal ends the save: the row can be saved again.
    session = inlineEditReducer(rules, session, { type: 'invalid', invalid: {} });
    expect(canSave(session)).toBe(true);
    expect(inlineEditReducer(rules, session, { type: 'clear' })).toBeNull();
  });

  it('stops deriving once the derived field is typed, and ignores changes while no row is edited', () => {
    let session = inlineEditReducer(rules, null, { type: 'start', key: 'new-1', mode: 'new', original: { name: '', code: '' } });
    session = inlineEditReducer(rules, session, { type: 'update', changes: { name: 'Auto' } });
    expect(session?.draft).toEqual({ name: 'Auto', code: 'auto' });
    session = inlineEditReducer(rules, session, { type: 'update', changes: { code: 'own' } });
    session = inlineEditReducer(rules, session, { type: 'update', changes: { name: 'Name' } });
    expect(session?.draft).toEqual({ name: 'Name', code: 'own' });
    expect(inlineEditReducer(rules, null, { type: 'update', changes: { name: 'x' } })).toBeNull();
    expect(inlineEditReducer(rules, null, { type: 'saving', saving: true })).toBeNull();
  });

  it('notifies the subscribers of each change of the session', () => {
    const store = new InlineEditStore(rules);
    const listener = vi.fn();
    store.subscribe(listener);
    store.update({ name: 'x' });
    expect(listener).not.toHaveBeenCalled();
    store.start('a', 'duplicating', { name: 'A', code: 'a' });
    store.update({ name: 'B' });
    expect(listener).toHaveBeenCalledTimes(2);
    expect(store.getSnapshot()?.changed).toBe(true);
    store.clear();
    expect(store.current).toBeNull();
  });

  it('maps schema issues to the first message of each known field', () => {
    const issues = [
      { path: ['name'], message: 'validation.required' },
      { path: ['name'], message: 'validation.maxLength' },
      { path: ['list', 0], message: 'validation.required' },
      { path: ['other'], message: 'validation.required' },
    ];
    expect(invalidFields(issues, { name: 1, code: 1 })).toEqual({ name: 'validation.required' });
    expect(invalidFields(issues, { name: 1, code: 1 }, (path) => (path === 'list' ? 'code' : path))).toEqual({
      name: 'validation.required',
      code: 'validation.required',
    });
  });
});
