import { APPROVAL_ACTIONS, APPROVAL_STEPS, type ApprovalRoute, type ApprovalRule, DomainError, fieldError } from '@eelarve/shared';
import type { Decider } from '../decider';
import type { ApprovalRouteEvent } from './route-events';

/** What the read models say about the organisation when its route is configured. */
export interface ApprovalRouteFacts {
  /** The organisation allows status editing: the route is part of the status settings. */
  editingAllowed: boolean;
  /** The statuses the organisation has (its own and the defaults; none when it does not use statuses). */
  statusIds: readonly string[];
  /** The organisation's default-type roles: the only roles a rule may name, as in status rules. */
  defaultRoleIds: readonly string[];
}

export type ApprovalRouteCommand =
  | { type: 'ConfigureApprovalRoute'; organizationId: string; route: ApprovalRoute; facts: ApprovalRouteFacts }
  | { type: 'ResetApprovalRoute'; organizationId: string; editingAllowed: boolean };

/** The organisation's configured route; null while it has the default one. */
export interface ApprovalRouteState {
  route: ApprovalRoute | null;
}

/** One stream per organisation: its route's configurations, newest last. */
export const approvalRouteStream = (organizationId: string) => `approval-route-${organizationId}`;

function assertEditingAllowed(editingAllowed: boolean): void {
  if (!editingAllowed) throw new DomainError('RESOURCE_STATUS_EDITING_DISABLED');
}

/** Each rule allows privileges or default-type roles of the organisation, never both. */
function assertValidRules(route: ApprovalRoute, facts: ApprovalRouteFacts): void {
  for (const action of APPROVAL_ACTIONS) {
    const rule = route.rules[action];
    if (rule.allowedPrivileges.length > 0 && rule.allowedRoleIds.length > 0) {
      throw fieldError('APPROVAL_RULE_MIXES_ALLOWANCES', `rules.${action}`, 'a rule allows privileges or roles, not both');
    }
    if (rule.allowedRoleIds.some((roleId) => !facts.defaultRoleIds.includes(roleId))) {
      throw fieldError('INVALID_USER_OR_ROLE', `rules.${action}.allowedRoleIds`, 'only default-type roles of the organisation');
    }
  }
}

/** A step may only set a status the organisation has. */
function assertKnownStatuses(route: ApprovalRoute, facts: ApprovalRouteFacts): void {
  for (const step of APPROVAL_STEPS) {
    const statusId = route.stepStatuses[step];
    if (statusId !== undefined && !facts.statusIds.includes(statusId)) {
      throw fieldError('RESOURCE_STATUS_NOT_FOUND', `stepStatuses.${step}`, 'no such resource status in the organisation');
    }
  }
}

const uniqueRule = (rule: ApprovalRule): ApprovalRule => ({
  allowedPrivileges: [...new Set(rule.allowedPrivileges)],
  allowedRoleIds: [...new Set(rule.allowedRoleIds)],
});

/** The route as it is stored: no repeated privilege or role, no step key without a status. */
function normalised(route: ApprovalRoute): ApprovalRoute {
  const rules = Object.fromEntries(APPROVAL_ACTIONS.map((action) => [action, uniqueRule(route.rules[action])])) as ApprovalRoute['rules'];
  const stepStatuses = Object.fromEntries(APPROVAL_STEPS.flatMap((step) => (route.stepStatuses[step] ? [[step, route.stepStatuses[step]]] : [])));
  return { rules, stepStatuses, approverMustDifferFromSubmitter: route.approverMustDifferFromSubmitter };
}

/** Order-insensitive: the same privileges, roles and statuses configured again change nothing. */
function sameRoute(a: ApprovalRoute, b: ApprovalRoute): boolean {
  const sameSet = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((item) => y.includes(item));
  return (
    a.approverMustDifferFromSubmitter === b.approverMustDifferFromSubmitter &&
    APPROVAL_STEPS.every((step) => a.stepStatuses[step] === b.stepStatuses[step]) &&
    APPROVAL_ACTIONS.every(
      (action) =>
        sameSet(a.rules[action].allowedPrivileges, b.rules[action].allowedPrivileges) &&
        sameSet(a.rules[action].allowedRoleIds, b.rules[action].allowedRoleIds),
    )
  );
}

function configure(command: Extract<ApprovalRouteCommand, { type: 'ConfigureApprovalRoute' }>, state: ApprovalRouteState): ApprovalRouteEvent[] {
  assertEditingAllowed(command.facts.editingAllowed);
  const route = normalised(command.route);
  assertValidRules(route, command.facts);
  assertKnownStatuses(route, command.facts);
  if (state.route && sameRoute(route, state.route)) return [];
  return [{ type: 'ApprovalRouteConfigured', data: { organizationId: command.organizationId, route } }];
}

/** Back to the default route; resetting a route that is already the default writes nothing. */
function reset(command: Extract<ApprovalRouteCommand, { type: 'ResetApprovalRoute' }>, state: ApprovalRouteState): ApprovalRouteEvent[] {
  assertEditingAllowed(command.editingAllowed);
  if (state.route === null) return [];
  return [{ type: 'ApprovalRouteReset', data: { organizationId: command.organizationId } }];
}

/**
 * An organisation's own approval route (issue 10, point 6): who may take each action, the status
 * each step sets and four eyes. The budget approval service hands the stored route to the budget
 * approval decider with each step, the default route while none is stored.
 */
export const approvalRouteDecider: Decider<ApprovalRouteCommand, ApprovalRouteEvent, ApprovalRouteState> = {
  streamName: (command) => approvalRouteStream(command.organizationId),
  initialState: () => ({ route: null }),
  evolve(_state, event) {
    switch (event.type) {
      case 'ApprovalRouteConfigured':
        return { route: event.data.route };
      case 'ApprovalRouteReset':
        return { route: null };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ConfigureApprovalRoute':
        return configure(command, state);
      case 'ResetApprovalRoute':
        return reset(command, state);
    }
  },
};
