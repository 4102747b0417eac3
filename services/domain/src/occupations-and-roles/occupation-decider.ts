import { DomainError } from '@eelarve/shared';
import type { Decider } from '../decider';
import type { OccupationEvent, OccupationType, RoleType } from './events';

export interface ActiveOccupation {
  status: 'active';
  organizationId: string;
  userId: string;
  name: string;
  description: string;
  type: OccupationType;
  roleIds: string[];
}

export type OccupationState = { status: 'none' } | ActiveOccupation | { status: 'deleted' };

/** A role as the read models know it; `role: null` when there is no such role. */
export interface RoleFact {
  roleId: string;
  role: { organizationId: string; type: RoleType } | null;
}

/**
 * Facts about other aggregates the gateway looked up for an assignment: whether the user belongs
 * to the occupation's organisation, and each requested role.
 */
export interface AssignmentChecks {
  userIsMember: boolean;
  roles: RoleFact[];
}

/**
 * Who works in the occupation right now (live sessions that selected it). `byCaller`: the
 * caller's own session; `byOthers`: another signed-in user's session.
 */
export interface OccupationUse {
  byCaller: boolean;
  byOthers: boolean;
}

export type OccupationCommand =
  /** `checks` is absent only for occupations the system itself creates (bootstrap, scripts). */
  | {
      type: 'CreateOccupation';
      occupationId: string;
      organizationId: string;
      userId: string;
      name: string;
      description: string;
      occupationType: OccupationType;
      roleIds: string[];
      checks?: AssignmentChecks;
    }
  | {
      type: 'UpdateOccupation';
      occupationId: string;
      userId: string;
      name: string;
      description: string;
      roleIds: string[];
      checks: AssignmentChecks;
      inUse: OccupationUse;
    }
  | { type: 'DeleteOccupation'; occupationId: string; inUse: OccupationUse }
  /** A platform administrator's ADMIN occupation in an organisation, carrying its admin role. */
  | { type: 'AssignAdmin'; occupationId: string; organizationId: string; userId: string; name: string; roleId: string }
  /** `lastPlatformAdmin`: it is in the platform organisation and no other occupation grants IS_ADMIN. */
  | { type: 'RemoveAdmin'; occupationId: string; lastPlatformAdmin: boolean };

export const occupationStream = (occupationId: string) => `occupation-${occupationId}`;

type Of<T extends OccupationCommand['type']> = Extract<OccupationCommand, { type: T }>;

/** The user must belong to the organisation; roles must be its own and not the admin role (spec 1, section 6). */
function assertAssignable(organizationId: string, roleIds: readonly string[], checks: AssignmentChecks): void {
  if (!checks.userIsMember) throw new DomainError('UNSUITABLE_USER');
  for (const roleId of roleIds) {
    const fact = checks.roles.find((candidate) => candidate.roleId === roleId);
    if (!fact?.role || fact.role.organizationId !== organizationId) throw new DomainError('INVALID_USER_OR_ROLE', `role ${roleId}`);
    if (fact.role.type === 'ADMIN') throw new DomainError('UNSUITABLE_ROLE', 'the admin role is only carried by ADMIN occupations');
  }
}

/**
 * Taking an occupation away from its user (deleting or reassigning it). The caller's own current
 * occupation: spec 1, section 6. Another user working in it right now is our reading of "an
 * occupation cannot be deleted while assigned to a user": every occupation has a user here, so
 * "assigned" means a user is signed in and acting in it.
 */
function assertNotInUse(inUse: OccupationUse): void {
  if (inUse.byCaller) throw new DomainError('CURRENT_OCCUPATION_CANNOT_BE_REMOVED');
  if (inUse.byOthers) throw new DomainError('USER_ALREADY_ALLOCATED', 'a signed-in user is acting in this occupation');
}

/** ADMIN occupations cannot be edited, deleted or assigned (spec 1, section 6). */
function modifiable(state: OccupationState): ActiveOccupation {
  if (state.status !== 'active') throw new DomainError('OCCUPATION_NOT_FOUND');
  if (state.type === 'ADMIN') throw new DomainError('OCCUPATION_NOT_MODIFIABLE');
  return state;
}

const unique = (ids: readonly string[]) => [...new Set(ids)];

function create(command: Of<'CreateOccupation'>, state: OccupationState): OccupationEvent[] {
  if (state.status !== 'none') throw new DomainError('CONCURRENT_MODIFICATION', 'occupation already exists');
  const roleIds = unique(command.roleIds);
  if (command.checks) {
    if (command.occupationType === 'ADMIN') throw new DomainError('OCCUPATION_NOT_MODIFIABLE', 'ADMIN occupations are made through api/admin');
    assertAssignable(command.organizationId, roleIds, command.checks);
  }
  const { occupationId, organizationId, userId, name, description } = command;
  return [{ type: 'OccupationCreated', data: { occupationId, organizationId, userId, name, description, type: command.occupationType, roleIds } }];
}

function update(command: Of<'UpdateOccupation'>, state: OccupationState): OccupationEvent[] {
  const occupation = modifiable(state);
  const roleIds = unique(command.roleIds);
  if (command.userId !== occupation.userId) assertNotInUse(command.inUse);
  assertAssignable(occupation.organizationId, roleIds, command.checks);
  const sameRoles = roleIds.length === occupation.roleIds.length && roleIds.every((id) => occupation.roleIds.includes(id));
  const { occupationId, userId, name, description } = command;
  if (occupation.userId === userId && occupation.name === name && occupation.description === description && sameRoles) return [];
  return [{ type: 'OccupationUpdated', data: { occupationId, organizationId: occupation.organizationId, userId, name, description, roleIds } }];
}

function remove(command: Of<'DeleteOccupation'>, state: OccupationState): OccupationEvent[] {
  const occupation = modifiable(state);
  assertNotInUse(command.inUse);
  return [{ type: 'OccupationDeleted', data: { occupationId: command.occupationId, organizationId: occupation.organizationId, userId: occupation.userId } }];
}

function assignAdmin(command: Of<'AssignAdmin'>, state: OccupationState): OccupationEvent[] {
  // A removed admin occupation can be given again: its stream (a fixed id per organisation and user) starts over.
  if (state.status === 'active') throw new DomainError('ADMIN_ALREADY_SET');
  const { occupationId, organizationId, userId, name, roleId } = command;
  return [{ type: 'OccupationCreated', data: { occupationId, organizationId, userId, name, description: '', type: 'ADMIN', roleIds: [roleId] } }];
}

function removeAdmin(command: Of<'RemoveAdmin'>, state: OccupationState): OccupationEvent[] {
  if (state.status !== 'active' || state.type !== 'ADMIN') throw new DomainError('ADMIN_NOT_SET');
  // Without an ADMIN occupation in the platform organisation nobody could administer the platform.
  if (command.lastPlatformAdmin) throw new DomainError('ORGANIZATION_UNSUITABLE', 'the platform needs at least one administrator');
  return [{ type: 'OccupationDeleted', data: { occupationId: command.occupationId, organizationId: state.organizationId, userId: state.userId } }];
}

export const occupationDecider: Decider<OccupationCommand, OccupationEvent, OccupationState> = {
  streamName: (command) => occupationStream(command.occupationId),
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'OccupationCreated': {
        const { organizationId, userId, name, description, type, roleIds } = event.data;
        return { status: 'active', organizationId, userId, name, description, type, roleIds };
      }
      case 'OccupationUpdated': {
        if (state.status !== 'active') return state;
        const { userId, name, description, roleIds } = event.data;
        return { ...state, userId, name, description, roleIds };
      }
      case 'OccupationDeleted':
        return { status: 'deleted' };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateOccupation':
        return create(command, state);
      case 'UpdateOccupation':
        return update(command, state);
      case 'DeleteOccupation':
        return remove(command, state);
      case 'AssignAdmin':
        return assignAdmin(command, state);
      case 'RemoveAdmin':
        return removeAdmin(command, state);
    }
  },
};
