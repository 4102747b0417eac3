import type { Privilege } from '@eelarve/shared';
import type { DomainEvent } from '../decider';

export type RoleType = 'ADMIN' | 'DEFAULT';
export type OccupationType = 'ADMIN' | 'DEFAULT';

export type RoleCreated = DomainEvent<
  'RoleCreated',
  { roleId: string; organizationId: string; name: string; description: string; privilegeIds: Privilege[]; type: RoleType }
>;
export type RoleUpdated = DomainEvent<'RoleUpdated', { roleId: string; organizationId: string; name: string; description: string; privilegeIds: Privilege[] }>;
export type RoleDeleted = DomainEvent<'RoleDeleted', { roleId: string; organizationId: string }>;

export type OccupationCreated = DomainEvent<
  'OccupationCreated',
  { occupationId: string; organizationId: string; userId: string; name: string; description: string; type: OccupationType; roleIds: string[] }
>;
export type OccupationUpdated = DomainEvent<
  'OccupationUpdated',
  { occupationId: string; organizationId: string; userId: string; name: string; description: string; roleIds: string[] }
>;
export type OccupationDeleted = DomainEvent<'OccupationDeleted', { occupationId: string; organizationId: string; userId: string }>;

export type RoleEvent = RoleCreated | RoleUpdated | RoleDeleted;
export type OccupationEvent = OccupationCreated | OccupationUpdated | OccupationDeleted;
export const ROLE_EVENT_TYPES = ['RoleCreated', 'RoleUpdated', 'RoleDeleted'] as const satisfies readonly RoleEvent['type'][];
export const OCCUPATION_EVENT_TYPES = ['OccupationCreated', 'OccupationUpdated', 'OccupationDeleted'] as const satisfies readonly OccupationEvent['type'][];
