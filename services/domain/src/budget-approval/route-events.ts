import type { ApprovalRoute } from '@eelarve/shared';
import type { DomainEvent } from '../decider';

/** The organisation's own route replaces the default one for every budget of the organisation. */
export type ApprovalRouteConfigured = DomainEvent<'ApprovalRouteConfigured', { organizationId: string; route: ApprovalRoute }>;
/** Back to the default route. */
export type ApprovalRouteReset = DomainEvent<'ApprovalRouteReset', { organizationId: string }>;

export type ApprovalRouteEvent = ApprovalRouteConfigured | ApprovalRouteReset;

export const APPROVAL_ROUTE_EVENT_TYPES = ['ApprovalRouteConfigured', 'ApprovalRouteReset'] as const satisfies readonly ApprovalRouteEvent['type'][];
