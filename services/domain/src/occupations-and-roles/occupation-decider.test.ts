import { describe, expect, it } from 'vitest';
import { expectDomainError, givenFor } from '../testing';
import type { OccupationEvent } from './events';
import { type AssignmentChecks, type OccupationCommand, occupationDecider } from './occupation-decider';

const occupationId = '0b7f9a1c-2d3e-4f50-8a6b-7c8d9e0f1a2b';
const organizationId = '6c1b8e8e-3a43-4d55-9d36-5b7f1d2b0c01';
const otherOrganizationId = '7d2c9f9f-4b54-4e66-8e47-6c8f2e3c1d02';
const userId = '3f0e5c1a-1b7e-4d8a-9c4e-2f7d6b1a0c11';
const otherUserId = '4a1f6d2b-2c8f-4e9b-8d5f-3a8e7c2b1d22';
const roleId = '9a7c3a52-0d1e-4b57-8f53-1c2d3e4f5a6b';
const adminRoleId = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';

const checks: AssignmentChecks = {
  userIsMember: true,
  roles: [
    { roleId, role: { organizationId, type: 'DEFAULT' } },
    { roleId: adminRoleId, role: { organizationId, type: 'ADMIN' } },
  ],
};
const idle = { byCaller: false, byOthers: false };

const given = givenFor<OccupationCommand, OccupationEvent, ReturnType<typeof occupationDecider.initialState>>(occupationDecider);

const expectCode = expectDomainError;

const create: OccupationCommand = {
  type: 'CreateOccupation',
  occupationId,
  organizationId,
  userId,
  name: 'Accountant',
  description: '',
  occupationType: 'DEFAULT',
  roleIds: [roleId, roleId],
  checks,
};
const created: OccupationEvent = {
  type: 'OccupationCreated',
  data: { occupationId, organizationId, userId, name: 'Accountant', description: '', type: 'DEFAULT', roleIds: [roleId] },
};
const adminCreated: OccupationEvent = { type: 'OccupationCreated', data: { ...created.data, name: 'Administrator', type: 'ADMIN', roleIds: [adminRoleId] } };
const update = (changes: Partial<Extract<OccupationCommand, { type: 'UpdateOccupation' }>> = {}): OccupationCommand => ({
  type: 'UpdateOccupation',
  occupationId,
  userId,
  name: 'Chief accountant',
  description: 'Signs off',
  roleIds: [roleId],
  checks,
  inUse: idle,
  ...changes,
});

describe('occupation decider: create', () => {
  it('creates with each role once', () => {
    expect(given([]).when(create)()).toEqual([created]);
  });

  it('refuses a user outside the organisation', () => {
    expectCode(given([]).when({ ...create, checks: { ...checks, userIsMember: false } }), 'UNSUITABLE_USER');
  });

  it('refuses an unknown role and a role of another organisation', () => {
    expectCode(given([]).when({ ...create, roleIds: ['00000000-0000-4000-8000-000000000000'] }), 'INVALID_USER_OR_ROLE');
    const foreign: AssignmentChecks = { userIsMember: true, roles: [{ roleId, role: { organizationId: otherOrganizationId, type: 'DEFAULT' } }] };
    expectCode(given([]).when({ ...create, checks: foreign }), 'INVALID_USER_OR_ROLE');
  });

  it('refuses the admin role on an ordinary occupation', () => {
    expectCode(given([]).when({ ...create, roleIds: [adminRoleId] }), 'UNSUITABLE_ROLE');
  });

  it('refuses to create an ADMIN occupation through the ordinary command', () => {
    expectCode(given([]).when({ ...create, occupationType: 'ADMIN', roleIds: [] }), 'OCCUPATION_NOT_MODIFIABLE');
  });

  it('trusts system callers that pass no checks (bootstrap)', () => {
    const { checks: _checks, ...trusted } = create as Extract<OccupationCommand, { type: 'CreateOccupation' }>;
    expect(given([]).when({ ...trusted, occupationType: 'ADMIN', roleIds: [adminRoleId] })()).toHaveLength(1);
  });
});

describe('occupation decider: update and delete', () => {
  it('updates name, description, roles and user', () => {
    expect(given([created]).when(update({ userId: otherUserId }))()).toEqual([
      {
        type: 'OccupationUpdated',
        data: { occupationId, organizationId, userId: otherUserId, name: 'Chief accountant', description: 'Signs off', roleIds: [roleId] },
      },
    ]);
  });

  it('records nothing when nothing changes', () => {
    expect(given([created]).when(update({ name: 'Accountant', description: '' }))()).toEqual([]);
  });

  it('checks user and roles on update too', () => {
    expectCode(given([created]).when(update({ checks: { ...checks, userIsMember: false } })), 'UNSUITABLE_USER');
    expectCode(given([created]).when(update({ roleIds: [adminRoleId] })), 'UNSUITABLE_ROLE');
  });

  it('refuses to edit or delete an ADMIN occupation', () => {
    expectCode(given([adminCreated]).when(update()), 'OCCUPATION_NOT_MODIFIABLE');
    expectCode(given([adminCreated]).when({ type: 'DeleteOccupation', occupationId, inUse: idle }), 'OCCUPATION_NOT_MODIFIABLE');
  });

  it('refuses to delete or reassign the caller’s current occupation', () => {
    const mine = { byCaller: true, byOthers: false };
    expectCode(given([created]).when({ type: 'DeleteOccupation', occupationId, inUse: mine }), 'CURRENT_OCCUPATION_CANNOT_BE_REMOVED');
    expectCode(given([created]).when(update({ userId: otherUserId, inUse: mine })), 'CURRENT_OCCUPATION_CANNOT_BE_REMOVED');
    // Renaming it is fine.
    expect(given([created]).when(update({ inUse: mine }))()).toHaveLength(1);
  });

  it('refuses to delete or reassign an occupation another signed-in user is acting in', () => {
    const theirs = { byCaller: false, byOthers: true };
    expectCode(given([created]).when({ type: 'DeleteOccupation', occupationId, inUse: theirs }), 'USER_ALREADY_ALLOCATED');
    expectCode(given([created]).when(update({ userId: otherUserId, inUse: theirs })), 'USER_ALREADY_ALLOCATED');
  });

  it('deletes, after which it is not found', () => {
    const deleted = given([created]).when({ type: 'DeleteOccupation', occupationId, inUse: idle })();
    expect(deleted).toEqual([{ type: 'OccupationDeleted', data: { occupationId, organizationId, userId } }]);
    expectCode(given([created, ...deleted]).when(update()), 'OCCUPATION_NOT_FOUND');
    expectCode(given([created, ...deleted]).when({ type: 'DeleteOccupation', occupationId, inUse: idle }), 'OCCUPATION_NOT_FOUND');
  });
});

describe('occupation decider: admin occupation', () => {
  const assign: OccupationCommand = { type: 'AssignAdmin', occupationId, organizationId, userId, name: 'Administrator', roleId: adminRoleId };

  it('assigns an ADMIN occupation carrying the admin role', () => {
    expect(given([]).when(assign)()).toEqual([adminCreated]);
  });

  it('refuses to assign it twice', () => {
    expectCode(given([adminCreated]).when(assign), 'ADMIN_ALREADY_SET');
  });

  it('removes it, and it can be assigned again', () => {
    const removed = given([adminCreated]).when({ type: 'RemoveAdmin', occupationId, lastPlatformAdmin: false })();
    expect(removed).toEqual([{ type: 'OccupationDeleted', data: { occupationId, organizationId, userId } }]);
    expect(given([adminCreated, ...removed]).when(assign)()).toEqual([adminCreated]);
  });

  it('refuses to remove what is not an admin occupation', () => {
    expectCode(given([]).when({ type: 'RemoveAdmin', occupationId, lastPlatformAdmin: false }), 'ADMIN_NOT_SET');
    expectCode(given([created]).when({ type: 'RemoveAdmin', occupationId, lastPlatformAdmin: false }), 'ADMIN_NOT_SET');
  });

  it('refuses to remove the platform’s last administrator', () => {
    expectCode(given([adminCreated]).when({ type: 'RemoveAdmin', occupationId, lastPlatformAdmin: true }), 'ORGANIZATION_UNSUITABLE');
  });
});
