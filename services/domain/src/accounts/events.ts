import type { DomainEvent } from '../decider';

export type UserRegistered = DomainEvent<'UserRegistered', { userId: string; organizationId: string; name: string; email: string; registeredAt: string }>;
/** The credential itself lives in an operational table; the event records that it changed, for the audit trail. */
export type UserPasswordSet = DomainEvent<'UserPasswordSet', { userId: string }>;
export type UserEmailConfirmed = DomainEvent<'UserEmailConfirmed', { userId: string; confirmedAt: string }>;

export type UserEvent = UserRegistered | UserPasswordSet | UserEmailConfirmed;
export const USER_EVENT_TYPES = ['UserRegistered', 'UserPasswordSet', 'UserEmailConfirmed'] as const;
