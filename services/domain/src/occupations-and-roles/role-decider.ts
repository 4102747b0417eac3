import { ADMIN_ROLE_NAME, DomainError, type Privilege } from '@eelarve/shared';
import type { Decider } from '../decider';
import type { RoleEvent, RoleType } from './events';

export interface ActiveRole {
  status: 'active';
  organizationId: string;
  name: string;
  description: string;
  privilegeIds: Privilege[];
  type: RoleType;
}

export type RoleState = { status: 'none' } | ActiveRole | { status: 'deleted' };

/**
 * Name uniqueness within the organisation is enforced outside the decider, by a reservation
 * stream per (organisation, lower-case name): it spans many role streams.
 */
export type RoleCommand =
  | { type: 'CreateRole'; roleId: string; organizationId: string; name: string; description: string; privilegeIds: Privilege[]; roleType: RoleType }
  | { type: 'UpdateRole'; roleId: string; name: string; description: string; privilegeIds: Privilege[] }
  /** `attachedToOccupation` comes from the read models (spec 1, section 6). */
  | { type: 'DeleteRole'; roleId: string; attachedToOccupation: boolean };

export const roleStream = (roleId: string) => `role-${roleId}`;

/** Role names compare case-insensitively (spec 1, section 5). */
export const normaliseRoleName = (name: string) => name.trim().toLowerCase();

/** The admin role's name is reserved for it (spec 1, section 5). */
function assertNameAllowed(name: string, type: RoleType): void {
  if (type !== 'ADMIN' && normaliseRoleName(name) === normaliseRoleName(ADMIN_ROLE_NAME)) throw new DomainError('ROLE_RESERVED');
}

/** The admin role cannot be edited or deleted (spec 1, section 5). */
function modifiable(state: RoleState): ActiveRole {
  if (state.status !== 'active') throw new DomainError('ROLE_NOT_FOUND');
  if (state.type === 'ADMIN') throw new DomainError('ROLE_NOT_MODIFIABLE');
  return state;
}

const unique = (privilegeIds: Privilege[]) => [...new Set(privilegeIds)];

function create(command: Extract<RoleCommand, { type: 'CreateRole' }>, state: RoleState): RoleEvent[] {
  if (state.status !== 'none') throw new DomainError('CONCURRENT_MODIFICATION', 'role already exists');
  assertNameAllowed(command.name, command.roleType);
  const { roleId, organizationId, name, description, privilegeIds } = command;
  return [{ type: 'RoleCreated', data: { roleId, organizationId, name, description, privilegeIds: unique(privilegeIds), type: command.roleType } }];
}

function update(command: Extract<RoleCommand, { type: 'UpdateRole' }>, state: RoleState): RoleEvent[] {
  const role = modifiable(state);
  assertNameAllowed(command.name, role.type);
  const privilegeIds = unique(command.privilegeIds);
  const samePrivileges = privilegeIds.length === role.privilegeIds.length && privilegeIds.every((id) => role.privilegeIds.includes(id));
  if (role.name === command.name && role.description === command.description && samePrivileges) return [];
  const { roleId, name, description } = command;
  return [{ type: 'RoleUpdated', data: { roleId, organizationId: role.organizationId, name, description, privilegeIds } }];
}

function remove(command: Extract<RoleCommand, { type: 'DeleteRole' }>, state: RoleState): RoleEvent[] {
  const role = modifiable(state);
  if (command.attachedToOccupation) throw new DomainError('ROLE_MAPPED_TO_OCCUPATION');
  return [{ type: 'RoleDeleted', data: { roleId: command.roleId, organizationId: role.organizationId } }];
}

export const roleDecider: Decider<RoleCommand, RoleEvent, RoleState> = {
  streamName: (command) => roleStream(command.roleId),
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'RoleCreated': {
        const { organizationId, name, description, privilegeIds, type } = event.data;
        return { status: 'active', organizationId, name, description, privilegeIds, type };
      }
      case 'RoleUpdated':
        return state.status === 'active'
          ? { ...state, name: event.data.name, description: event.data.description, privilegeIds: event.data.privilegeIds }
          : state;
      case 'RoleDeleted':
        return { status: 'deleted' };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateRole':
        return create(command, state);
      case 'UpdateRole':
        return update(command, state);
      case 'DeleteRole':
        return remove(command, state);
    }
  },
};
