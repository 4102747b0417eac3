import type { Privilege } from '@eelarve/shared';
import type { DomainEvent } from '../decider';

export type RoleType = 'ADMIN' | 'DEFAULT';
export type OccupationType = 'ADMIN' | 'DEFAULT';

export type RoleCreated = DomainEvent<'RoleCreated', { roleId: string; organizationId: string; name: string; description: string; privilegeIds: Privilege[]; type: RoleType }>;
export type OccupationCreated = DomainEvent<
  'OccupationCreated',
  { occupationId: string; organizationId: string; userId: string; name: string; description: string; type: OccupationType; roleIds: string[] }
>;

export type RoleEvent = RoleCreated;
export type OccupationEvent = OccupationCreated;
export const ROLE_EVENT_TYPES = ['RoleCreated'] as const;
export const OCCUPATION_EVENT_TYPES = ['OccupationCreated'] as const;
