import { type ApprovalRoute, DEFAULT_RESOURCE_STATUSES, defaultApprovalRoute } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { expectDomainError, givenFor } from '../testing';
import { type ApprovalRouteCommand, type ApprovalRouteFacts, type ApprovalRouteState, approvalRouteDecider, approvalRouteStream } from './route-decider';
import type { ApprovalRouteEvent } from './route-events';

const organizationId = '55555555-5555-4555-8555-555555555555';
const financeRoleId = '66666666-6666-4666-8666-666666666666';
const customRoleId = '77777777-7777-4777-8777-777777777777';
const ownStatusId = '88888888-8888-4888-8888-888888888888';
const [inPreparation, submitted, approved] = DEFAULT_RESOURCE_STATUSES.map((status) => status.id);

const facts: ApprovalRouteFacts = {
  editingAllowed: true,
  statusIds: [...DEFAULT_RESOURCE_STATUSES.map((status) => status.id), ownStatusId],
  defaultRoleIds: [financeRoleId],
};

/** Anyone who may update submits; the finance role approves and sends back; status administrators reopen. */
const financeRoute: ApprovalRoute = {
  rules: {
    SUBMIT: { allowedPrivileges: [], allowedRoleIds: [] },
    APPROVE: { allowedPrivileges: [], allowedRoleIds: [financeRoleId] },
    SEND_BACK: { allowedPrivileges: [], allowedRoleIds: [financeRoleId] },
    REOPEN: { allowedPrivileges: ['STATUS_ADMIN'], allowedRoleIds: [] },
  },
  stepStatuses: { DRAFT: inPreparation, SUBMITTED: ownStatusId, APPROVED: approved },
  approverMustDifferFromSubmitter: true,
};

const configure = (route: ApprovalRoute, withFacts = facts): ApprovalRouteCommand => ({
  type: 'ConfigureApprovalRoute',
  organizationId,
  route,
  facts: withFacts,
});
const reset = (editingAllowed = true): ApprovalRouteCommand => ({ type: 'ResetApprovalRoute', organizationId, editingAllowed });
const configured = (route = financeRoute): ApprovalRouteEvent => ({ type: 'ApprovalRouteConfigured', data: { organizationId, route } });
const wasReset: ApprovalRouteEvent = { type: 'ApprovalRouteReset', data: { organizationId } };
const withRule = (action: keyof ApprovalRoute['rules'], rule: Partial<ApprovalRoute['rules']['APPROVE']>): ApprovalRoute => ({
  ...financeRoute,
  rules: { ...financeRoute.rules, [action]: { ...financeRoute.rules[action], ...rule } },
});

const given = givenFor<ApprovalRouteCommand, ApprovalRouteEvent, ApprovalRouteState>(approvalRouteDecider);

function expectFieldError(run: () => unknown, code: string, field: string): void {
  expectDomainError(run, code);
  expect(run).toThrowError(expect.objectContaining({ details: [expect.objectContaining({ field })] }));
}

describe('approval route decider', () => {
  it('keeps each organisation’s route in a stream of its own', () => {
    expect(approvalRouteDecider.streamName(reset())).toBe(`approval-route-${organizationId}`);
    expect(approvalRouteStream(organizationId)).toBe(`approval-route-${organizationId}`);
  });

  it('configures the route, then replaces it with a changed one', () => {
    expect(given([]).when(configure(financeRoute))()).toEqual([configured()]);
    const changed = { ...financeRoute, approverMustDifferFromSubmitter: false };
    expect(given([configured()]).when(configure(changed))()).toEqual([configured(changed)]);
    expect(approvalRouteDecider.evolve(approvalRouteDecider.initialState(), configured()).route).toEqual(financeRoute);
  });

  it('stores the route without repeated privileges or roles, and writes nothing when it is configured again unchanged', () => {
    const repeated = withRule('APPROVE', { allowedRoleIds: [financeRoleId, financeRoleId] });
    expect(given([]).when(configure(repeated))()).toEqual([configured()]);
    expect(given([configured()]).when(configure(repeated))()).toEqual([]);
  });

  it('drops a step named without a status, so the step leaves the budget’s status as it is', () => {
    const blank = { ...financeRoute, stepStatuses: { ...financeRoute.stepStatuses, SENT_BACK: undefined } };
    const [event] = given([]).when(configure(blank))();
    expect(event?.type === 'ApprovalRouteConfigured' && Object.keys(event.data.route.stepStatuses)).toEqual(['DRAFT', 'SUBMITTED', 'APPROVED']);
  });

  it('refuses every change when the organisation does not allow status editing', () => {
    expectDomainError(given([]).when(configure(financeRoute, { ...facts, editingAllowed: false })), 'RESOURCE_STATUS_EDITING_DISABLED');
    expectDomainError(given([configured()]).when(reset(false)), 'RESOURCE_STATUS_EDITING_DISABLED');
  });

  it('refuses a rule that allows both privileges and roles, naming the rule', () => {
    const mixed = withRule('SEND_BACK', { allowedPrivileges: ['STATUS_ADMIN'] });
    expectFieldError(given([]).when(configure(mixed)), 'APPROVAL_RULE_MIXES_ALLOWANCES', 'rules.SEND_BACK');
  });

  it('refuses a role that is not a default-type role of the organisation', () => {
    const custom = withRule('APPROVE', { allowedRoleIds: [financeRoleId, customRoleId] });
    expectFieldError(given([]).when(configure(custom)), 'INVALID_USER_OR_ROLE', 'rules.APPROVE.allowedRoleIds');
  });

  it('refuses a step status the organisation does not have, and any status where it uses none', () => {
    const unknown = { ...financeRoute, stepStatuses: { SENT_BACK: customRoleId } };
    expectFieldError(given([]).when(configure(unknown)), 'RESOURCE_STATUS_NOT_FOUND', 'stepStatuses.SENT_BACK');
    expectFieldError(given([]).when(configure(financeRoute, { ...facts, statusIds: [] })), 'RESOURCE_STATUS_NOT_FOUND', 'stepStatuses.DRAFT');
    expect(given([]).when(configure(defaultApprovalRoute(false), { ...facts, statusIds: [] }))()).toHaveLength(1);
    expect(given([]).when(configure({ ...financeRoute, stepStatuses: { SUBMITTED: submitted } }))()).toHaveLength(1);
  });

  it('resets a configured route to the default, and writes nothing for a route that is the default already', () => {
    expect(given([configured()]).when(reset())()).toEqual([wasReset]);
    expect(given([]).when(reset())()).toEqual([]);
    expect(given([configured(), wasReset]).when(reset())()).toEqual([]);
    expect(given([configured(), wasReset]).when(configure(financeRoute))()).toEqual([configured()]);
  });
});
