import type { Permission } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import {
  allUpdate,
  bulkChange,
  canToggleRead,
  canToggleUpdate,
  type Grant,
  grantIndex,
  grantsByOccupation,
  NO_GRANT,
  ORGANIZATION,
  readChange,
  toggleState,
  updateChange,
} from './grants';

const permission = (over: Partial<Permission>): Permission => ({
  occupationId: 'o1',
  documentId: null,
  budgetId: null,
  subBudgetId: null,
  read: false,
  update: false,
  inheritedRead: false,
  inheritedUpdate: false,
  ...over,
});

const budget = { documentId: 'd1', budgetId: 'b1', subBudgetId: null };
const subBudget = { ...budget, subBudgetId: 's1' };
const grant = (own: Partial<Grant['own']>, inherited: Partial<Grant['inherited']> = {}): Grant => ({
  own: { read: false, update: false, ...own },
  inherited: { read: false, update: false, ...inherited },
});

describe('grantIndex', () => {
  it('finds a row by its resource, and a sub-budget not listed inherits from its budget', () => {
    const lookup = grantIndex([
      permission({ documentId: 'd1', budgetId: 'b1', read: true, inheritedUpdate: true, inheritedRead: true }),
      permission({ documentId: 'd1', budgetId: 'b1', subBudgetId: 's2', update: true, read: true, inheritedRead: true, inheritedUpdate: true }),
    ]);
    expect(lookup(budget)).toEqual(grant({ read: true }, { read: true, update: true }));
    expect(lookup(subBudget)).toEqual(grant({}, { read: true, update: true }));
    expect(lookup({ ...budget, subBudgetId: 's2' }).own).toEqual({ read: true, update: true });
    expect(lookup({ documentId: 'd1', budgetId: 'b2', subBudgetId: 's1' })).toBe(NO_GRANT);
    expect(lookup(ORGANIZATION)).toBe(NO_GRANT);
  });

  it('groups the rows of a document by occupation', () => {
    const byOccupation = grantsByOccupation([
      permission({ occupationId: 'a', documentId: 'd1', read: true }),
      permission({ occupationId: 'b', documentId: 'd1', update: true, read: true }),
    ]);
    expect(byOccupation.get('a')?.({ documentId: 'd1', budgetId: null, subBudgetId: null }).own).toEqual({ read: true, update: false });
    expect(byOccupation.get('b')?.({ documentId: 'd1', budgetId: null, subBudgetId: null }).own).toEqual({ read: true, update: true });
    expect(byOccupation.has('c')).toBe(false);
  });
});

describe('toggles', () => {
  it('shows update as read, and locks read while update is on', () => {
    const state = toggleState(grant({ update: true }));
    expect(state).toMatchObject({ read: true, update: true, readImplied: true, readInherited: false });
    expect(canToggleRead(state)).toBe(false);
    expect(canToggleUpdate(state)).toBe(true);
  });

  it('locks what is inherited and lets update be added on an inherited read', () => {
    const state = toggleState(grant({}, { read: true }));
    expect(state).toMatchObject({ read: true, update: false, readInherited: true });
    expect(canToggleRead(state)).toBe(false);
    expect(canToggleUpdate(state)).toBe(true);
    expect(canToggleUpdate(toggleState(grant({}, { update: true })))).toBe(false);
  });

  it('sends read alone or nothing from the read box', () => {
    expect(readChange(budget, true)).toEqual({ ...budget, read: true, update: false });
    expect(readChange(budget, false)).toEqual({ ...budget, read: false, update: false });
  });

  it('keeps an inherited read when update is taken away, and drops read given with update', () => {
    expect(updateChange(budget, true, toggleState(NO_GRANT))).toEqual({ ...budget, read: true, update: true });
    expect(updateChange(budget, false, toggleState(grant({ update: true }, { read: true })))).toEqual({ ...budget, read: true, update: false });
    expect(updateChange(budget, false, toggleState(grant({ update: true })))).toEqual({ ...budget, read: false, update: false });
  });
});

describe('header toggle', () => {
  const rows = [
    { resource: ORGANIZATION, grant: grant({ read: true }) },
    { resource: budget, grant: grant({ update: true }, { read: true }) },
    { resource: subBudget, grant: grant({}, { read: true, update: true }) },
  ];

  it('grants update on the rows that lack it', () => {
    expect(allUpdate(rows.map((row) => row.grant))).toBe(false);
    expect(bulkChange(rows, () => false)).toEqual([{ ...ORGANIZATION, read: true, update: true }]);
  });

  it('when every row has update, removes the grants given on the rows, but not where a grant is kept from outside', () => {
    const all = [
      { resource: ORGANIZATION, grant: grant({ update: true }) },
      { resource: budget, grant: grant({ update: true }, { read: true, update: true }) },
      { resource: subBudget, grant: grant({}, { read: true, update: true }) },
    ];
    expect(allUpdate(all.map((row) => row.grant))).toBe(true);
    expect(bulkChange(all, () => false)).toEqual([
      { ...ORGANIZATION, read: false, update: false },
      { ...budget, read: false, update: false },
    ]);
    expect(bulkChange(all, (row) => row.grant.inherited.read)).toEqual([{ ...ORGANIZATION, read: false, update: false }]);
  });

  it('is off over no rows', () => {
    expect(allUpdate([])).toBe(false);
    expect(bulkChange([], () => false)).toEqual([]);
  });
});
