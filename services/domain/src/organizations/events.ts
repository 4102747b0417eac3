import type { AuthenticationType, LocaleCode, LocaleSettings } from '@eelarve/shared';
import type { DomainEvent } from '../decider';

/** The organisation's settings as the administration modal edits them. */
export interface OrganizationSettings {
  name: string;
  localeCode: LocaleCode;
  localeSettings: LocaleSettings;
  enableResourceStatuses: boolean;
  allowResourceStatusEditing: boolean;
  /** Interactive types plus BASIC when API usage is allowed. */
  allowedAuthenticationTypes: AuthenticationType[];
  apiUsageAllowed: boolean;
  sessionLength: number;
  sessionLengthMultiplier: number;
}

export type OrganizationCreated = DomainEvent<'OrganizationCreated', OrganizationSettings & { organizationId: string; isPlatform: boolean; createdAt: string }>;
export type OrganizationUpdated = DomainEvent<'OrganizationUpdated', OrganizationSettings & { organizationId: string }>;
export type OrganizationDeleted = DomainEvent<'OrganizationDeleted', { organizationId: string }>;

export type OrganizationEvent = OrganizationCreated | OrganizationUpdated | OrganizationDeleted;

export const ORGANIZATION_EVENT_TYPES = ['OrganizationCreated', 'OrganizationUpdated', 'OrganizationDeleted'] as const;
