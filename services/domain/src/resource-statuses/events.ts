import type { LocalizedText, ResourceStatusIcon, ResourceStatusRule } from '@eelarve/shared';
import type { DomainEvent } from '../decider';

/** What a status says about itself; a default status carries it too once its organisation edits it. */
export interface ResourceStatusContent {
  name: LocalizedText;
  description: LocalizedText;
  icon: ResourceStatusIcon;
  rules: ResourceStatusRule[];
}

interface StatusKey {
  statusId: string;
  organizationId: string;
}

/** An organisation's own status (never read-only). */
export type ResourceStatusCreated = DomainEvent<'ResourceStatusCreated', StatusKey & ResourceStatusContent & { createdAt: string }>;
/** New content; `readOnly` marks one of the default statuses as its organisation has it. */
export type ResourceStatusUpdated = DomainEvent<'ResourceStatusUpdated', StatusKey & ResourceStatusContent & { readOnly: boolean }>;
export type ResourceStatusDeleted = DomainEvent<'ResourceStatusDeleted', StatusKey>;
/** A deleted role leaves the status's rules (spec 1, section 6); `rules` are the rules after. */
export type ResourceStatusRoleRemoved = DomainEvent<'ResourceStatusRoleRemoved', StatusKey & { roleId: string; rules: ResourceStatusRule[] }>;

export type ResourceStatusEvent = ResourceStatusCreated | ResourceStatusUpdated | ResourceStatusDeleted | ResourceStatusRoleRemoved;

export const RESOURCE_STATUS_EVENT_TYPES = ['ResourceStatusCreated', 'ResourceStatusUpdated', 'ResourceStatusDeleted', 'ResourceStatusRoleRemoved'] as const;
