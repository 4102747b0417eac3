import { describe, expect, it } from 'vitest';
import { expectDomainError, givenFor } from '../testing';
import { NO_GRANT, type ResourcePermissionsCommand, resourcePermissionsDecider, resourcePermissionsStream } from './decider';
import type { ResourceGrant, ResourcePermissionEvent } from './events';

const given = givenFor(resourcePermissionsDecider);
const occupationId = 'occ-finance';
const organizationId = 'org-tartu';
const documentId = 'doc-2027';
const scope = { occupationId, organizationId, documentId };

const grant = (budgetId: string | null, subBudgetId: string | null, read: boolean, update: boolean): ResourceGrant => ({ budgetId, subBudgetId, read, update });
const set = (grants: ResourceGrant[], organizationGrant = NO_GRANT): ResourcePermissionsCommand => ({
  type: 'SetResourcePermissions',
  ...scope,
  grants,
  organizationGrant,
});
const wasSet = (grants: ResourceGrant[]): ResourcePermissionEvent => ({ type: 'ResourcePermissionsSet', data: { ...scope, grants } });

describe('resource permissions decider', () => {
  it('keeps one stream per occupation and document, and one for the organisation', () => {
    expect(resourcePermissionsStream('o1', 'd1')).toBe('resource-permissions-o1-d1');
    expect(resourcePermissionsStream('o1', null)).toBe('resource-permissions-o1-organization');
    expect(resourcePermissionsDecider.streamName(set([]))).toBe('resource-permissions-occ-finance-doc-2027');
  });

  it('grants read on a budget and update on a sub-budget below it', () => {
    const grants = [grant('b1', null, true, false), grant('b1', 's1', true, true)];
    expect(given([]).when(set(grants))()).toEqual([wasSet(grants)]);
  });

  it('records only the grants that changed, and nothing when none did', () => {
    const events = [wasSet([grant('b1', null, true, false)])];
    expect(given(events).when(set([grant('b1', null, true, false), grant('b2', null, true, true)]))()).toEqual([wasSet([grant('b2', null, true, true)])]);
    expect(given(events).when(set([grant('b1', null, true, false)]))()).toEqual([]);
  });

  it('refuses update without read: update implies read', () => {
    expectDomainError(given([]).when(set([grant('b1', null, false, true)])), 'PERMISSIONS_CHAIN_INVALID');
  });

  it('refuses a sub-budget grant without its budget', () => {
    expectDomainError(given([]).when(set([grant(null, 's1', true, false)])), 'PERMISSIONS_CHAIN_INVALID');
  });

  it('refuses a budget grant in the organisation stream', () => {
    const command: ResourcePermissionsCommand = {
      type: 'SetResourcePermissions',
      ...scope,
      documentId: null,
      grants: [grant('b1', null, true, false)],
      organizationGrant: NO_GRANT,
    };
    expectDomainError(given([]).when(command), 'PERMISSIONS_CHAIN_INVALID');
  });

  it('refuses removing a grant inherited from the document, or narrowing update to read below it', () => {
    const documentUpdate = [wasSet([grant(null, null, true, true)])];
    expectDomainError(given(documentUpdate).when(set([grant('b1', null, false, false)])), 'PERMISSIONS_CHAIN_INVALID');
    expectDomainError(given(documentUpdate).when(set([grant('b1', 's1', true, false)])), 'PERMISSIONS_CHAIN_INVALID');
  });

  it('refuses removing what the budget above a sub-budget grants', () => {
    const budgetRead = [wasSet([grant('b1', null, true, false)])];
    expectDomainError(given(budgetRead).when(set([grant('b1', 's1', false, false)])), 'PERMISSIONS_CHAIN_INVALID');
    // Update on the sub-budget is more than the budget gives: allowed.
    expect(given(budgetRead).when(set([grant('b1', 's1', true, true)]))()).toEqual([wasSet([grant('b1', 's1', true, true)])]);
  });

  it('refuses removing a document grant the organisation grant gives', () => {
    expectDomainError(given([]).when(set([grant(null, null, false, false)], { read: true, update: false })), 'PERMISSIONS_CHAIN_INVALID');
    expect(given([]).when(set([grant(null, null, true, true)], { read: true, update: false }))()).toEqual([wasSet([grant(null, null, true, true)])]);
  });

  it('removes a parent and its children together (the header toggle removing over a set)', () => {
    const events = [wasSet([grant(null, null, true, true), grant('b1', 's1', true, true)])];
    const removal = [grant(null, null, false, false), grant('b1', 's1', false, false)];
    expect(given(events).when(set(removal))()).toEqual([wasSet(removal)]);
  });

  it('replaces the stream when copied from another occupation, and folds the copy', () => {
    const events = [wasSet([grant('b1', null, true, false)])];
    const command: ResourcePermissionsCommand = {
      type: 'ReplaceResourcePermissions',
      ...scope,
      grants: [grant('b2', null, true, true)],
      copiedFromOccupationId: 'occ-source',
    };
    const decided = given(events).when(command)();
    expect(decided).toEqual([
      { type: 'ResourcePermissionsReplaced', data: { ...scope, grants: [grant('b2', null, true, true)], copiedFromOccupationId: 'occ-source' } },
    ]);
    const state = [...events, ...decided].reduce(resourcePermissionsDecider.evolve, resourcePermissionsDecider.initialState());
    expect([...state.grants]).toEqual([['b2/', { read: true, update: true }]]);
    expect(given([...events, ...decided]).when(command)()).toEqual([]);
  });
});
