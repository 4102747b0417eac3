import type { LocaleCode } from '@eelarve/shared';
import type { DomainEvent } from '../decider';

export type UserRegistered = DomainEvent<'UserRegistered', { userId: string; organizationId: string; name: string; email: string; registeredAt: string }>;
/** The credential itself lives in an operational table; the event records that it changed, for the audit trail. */
export type UserPasswordSet = DomainEvent<'UserPasswordSet', { userId: string }>;
export type UserEmailConfirmed = DomainEvent<'UserEmailConfirmed', { userId: string; confirmedAt: string }>;
/** An administrator changed the user's name and/or e-mail (users screen). */
export type UserUpdated = DomainEvent<'UserUpdated', { userId: string; name: string; email: string }>;
export type UserDeleted = DomainEvent<'UserDeleted', { userId: string; organizationId: string }>;
/** The MFA secret lives in an operational table; these record that it was confirmed or removed. */
export type UserMfaEnabled = DomainEvent<'UserMfaEnabled', { userId: string }>;
export type UserMfaDisabled = DomainEvent<'UserMfaDisabled', { userId: string }>;
/** The personal code lives in an operational table; these record only that a binding changed. */
export type UserElectronicIdBound = DomainEvent<'UserElectronicIdBound', { userId: string }>;
export type UserElectronicIdUnbound = DomainEvent<'UserElectronicIdUnbound', { userId: string }>;
/** A platform administrator removed password, MFA and electronic ID at once. */
export type UserAuthMethodsRemoved = DomainEvent<'UserAuthMethodsRemoved', { userId: string }>;
export type UserLanguageSet = DomainEvent<'UserLanguageSet', { userId: string; language: LocaleCode }>;
/** The user changed their own e-mail (account settings). */
export type UserEmailChanged = DomainEvent<'UserEmailChanged', { userId: string; email: string }>;

export type UserEvent =
  | UserRegistered
  | UserPasswordSet
  | UserEmailConfirmed
  | UserUpdated
  | UserDeleted
  | UserMfaEnabled
  | UserMfaDisabled
  | UserElectronicIdBound
  | UserElectronicIdUnbound
  | UserAuthMethodsRemoved
  | UserLanguageSet
  | UserEmailChanged;

export const USER_EVENT_TYPES = [
  'UserRegistered',
  'UserPasswordSet',
  'UserEmailConfirmed',
  'UserUpdated',
  'UserDeleted',
  'UserMfaEnabled',
  'UserMfaDisabled',
  'UserElectronicIdBound',
  'UserElectronicIdUnbound',
  'UserAuthMethodsRemoved',
  'UserLanguageSet',
  'UserEmailChanged',
] as const satisfies readonly UserEvent['type'][];
