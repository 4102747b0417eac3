import { DomainError, type Privilege } from '@eelarve/shared';
import type { Decider } from '../decider';
import type { OccupationEvent, OccupationType, RoleEvent, RoleType } from './events';

export type RoleState = { status: 'none' } | { status: 'active'; type: RoleType };
export type RoleCommand = {
  type: 'CreateRole';
  roleId: string;
  organizationId: string;
  name: string;
  description: string;
  privilegeIds: Privilege[];
  roleType: RoleType;
};

export const roleStream = (roleId: string) => `role-${roleId}`;

export const roleDecider: Decider<RoleCommand, RoleEvent, RoleState> = {
  streamName: (command) => roleStream(command.roleId),
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => ({ status: 'active', type: event.data.type }),
  decide(command, state) {
    if (state.status !== 'none') throw new DomainError('CONCURRENT_MODIFICATION', 'role already exists');
    const { roleId, organizationId, name, description, privilegeIds } = command;
    return [{ type: 'RoleCreated', data: { roleId, organizationId, name, description, privilegeIds: [...new Set(privilegeIds)], type: command.roleType } }];
  },
};

export type OccupationState = { status: 'none' } | { status: 'active'; type: OccupationType };
export type OccupationCommand = {
  type: 'CreateOccupation';
  occupationId: string;
  organizationId: string;
  userId: string;
  name: string;
  description: string;
  occupationType: OccupationType;
  roleIds: string[];
};

export const occupationStream = (occupationId: string) => `occupation-${occupationId}`;

export const occupationDecider: Decider<OccupationCommand, OccupationEvent, OccupationState> = {
  streamName: (command) => occupationStream(command.occupationId),
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => ({ status: 'active', type: event.data.type }),
  decide(command, state) {
    if (state.status !== 'none') throw new DomainError('CONCURRENT_MODIFICATION', 'occupation already exists');
    const { occupationId, organizationId, userId, name, description, roleIds } = command;
    return [{ type: 'OccupationCreated', data: { occupationId, organizationId, userId, name, description, type: command.occupationType, roleIds } }];
  },
};
