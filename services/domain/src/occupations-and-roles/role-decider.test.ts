import { describe, expect, it } from 'vitest';
import { expectDomainError, givenFor } from '../testing';
import type { RoleEvent } from './events';
import { type RoleCommand, roleDecider } from './role-decider';

const roleId = '9a7c3a52-0d1e-4b57-8f53-1c2d3e4f5a6b';
const organizationId = '6c1b8e8e-3a43-4d55-9d36-5b7f1d2b0c01';

const given = givenFor<RoleCommand, RoleEvent, ReturnType<typeof roleDecider.initialState>>(roleDecider);

const expectCode = expectDomainError;

const created: RoleEvent = {
  type: 'RoleCreated',
  data: { roleId, organizationId, name: 'Accountant', description: '', privilegeIds: ['DATA_VIEW'], type: 'DEFAULT' },
};
const admin: RoleEvent = { type: 'RoleCreated', data: { ...created.data, name: 'ADMIN', type: 'ADMIN', privilegeIds: ['USER_ADMIN', 'ROLES_ADMIN'] } };
const create: RoleCommand = {
  type: 'CreateRole',
  roleId,
  organizationId,
  name: 'Accountant',
  description: '',
  privilegeIds: ['DATA_VIEW', 'DATA_VIEW'],
  roleType: 'DEFAULT',
};

describe('role decider', () => {
  it('creates a role with each privilege once', () => {
    expect(given([]).when(create)()).toEqual([created]);
  });

  it('refuses the reserved admin name for an ordinary role, in any case', () => {
    expectCode(given([]).when({ ...create, name: 'admin' }), 'ROLE_RESERVED');
    expectCode(given([]).when({ ...create, name: ' Admin ' }), 'ROLE_RESERVED');
    expectCode(given([created]).when({ type: 'UpdateRole', roleId, name: 'ADMIN', description: '', privilegeIds: [] }), 'ROLE_RESERVED');
  });

  it('allows the reserved name for the admin role itself', () => {
    expect(given([]).when({ ...create, name: 'ADMIN', roleType: 'ADMIN' })()).toHaveLength(1);
  });

  it('updates name, description and privileges', () => {
    const events = given([created]).when({
      type: 'UpdateRole',
      roleId,
      name: 'Chief accountant',
      description: 'Signs off',
      privilegeIds: ['DATA_VIEW', 'USER_VIEW'],
    })();
    expect(events).toEqual([
      { type: 'RoleUpdated', data: { roleId, organizationId, name: 'Chief accountant', description: 'Signs off', privilegeIds: ['DATA_VIEW', 'USER_VIEW'] } },
    ]);
  });

  it('records nothing when an update changes nothing', () => {
    expect(given([created]).when({ type: 'UpdateRole', roleId, name: 'Accountant', description: '', privilegeIds: ['DATA_VIEW'] })()).toEqual([]);
  });

  it('refuses to edit or delete the admin role', () => {
    expectCode(given([admin]).when({ type: 'UpdateRole', roleId, name: 'ADMIN', description: 'x', privilegeIds: [] }), 'ROLE_NOT_MODIFIABLE');
    expectCode(given([admin]).when({ type: 'DeleteRole', roleId, attachedToOccupation: false }), 'ROLE_NOT_MODIFIABLE');
  });

  it('refuses to delete a role attached to an occupation', () => {
    expectCode(given([created]).when({ type: 'DeleteRole', roleId, attachedToOccupation: true }), 'ROLE_MAPPED_TO_OCCUPATION');
  });

  it('deletes, after which the role is not found', () => {
    const deleted = given([created]).when({ type: 'DeleteRole', roleId, attachedToOccupation: false })();
    expect(deleted).toEqual([{ type: 'RoleDeleted', data: { roleId, organizationId } }]);
    expectCode(given([created, ...deleted]).when({ type: 'UpdateRole', roleId, name: 'X', description: '', privilegeIds: [] }), 'ROLE_NOT_FOUND');
    expectCode(given([created, ...deleted]).when({ type: 'DeleteRole', roleId, attachedToOccupation: false }), 'ROLE_NOT_FOUND');
    expectCode(given([created, ...deleted]).when(create), 'CONCURRENT_MODIFICATION');
  });

  it('finds no role that was never created', () => {
    expectCode(given([]).when({ type: 'DeleteRole', roleId, attachedToOccupation: false }), 'ROLE_NOT_FOUND');
  });
});
