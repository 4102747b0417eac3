import { type ApprovalRoute, DEFAULT_RESOURCE_STATUSES, defaultApprovalRoute } from '@eelarve/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GivenEvent, newId, type ProjectorSpec, projectorSpec } from '../../test/given-events';
import { approvalRoutesProjector } from './route-projector';
import { configuredApprovalRoute } from './route-queries';

let spec: ProjectorSpec;
beforeEach(async () => {
  spec = await projectorSpec(approvalRoutesProjector);
});
afterEach(async () => spec.close());

const financeRoleId = newId();
const financeRoute: ApprovalRoute = {
  rules: {
    SUBMIT: { allowedPrivileges: [], allowedRoleIds: [] },
    APPROVE: { allowedPrivileges: [], allowedRoleIds: [financeRoleId] },
    SEND_BACK: { allowedPrivileges: [], allowedRoleIds: [financeRoleId] },
    REOPEN: { allowedPrivileges: ['STATUS_ADMIN'], allowedRoleIds: [] },
  },
  stepStatuses: { SUBMITTED: DEFAULT_RESOURCE_STATUSES[1]!.id, APPROVED: DEFAULT_RESOURCE_STATUSES[2]!.id },
  approverMustDifferFromSubmitter: false,
};

const configured = (organizationId: string, route: ApprovalRoute): GivenEvent => ({
  stream: `approval-route-${organizationId}`,
  type: 'ApprovalRouteConfigured',
  data: { organizationId, route },
});
const reset = (organizationId: string): GivenEvent => ({ stream: `approval-route-${organizationId}`, type: 'ApprovalRouteReset', data: { organizationId } });

describe('approval routes projector', () => {
  it('keeps each organisation’s latest configured route, and none for an organisation that configured none', async () => {
    const [organization, other, untouched] = [newId(), newId(), newId()];
    await spec.given(
      configured(organization, defaultApprovalRoute(true)),
      configured(organization, financeRoute),
      configured(other, defaultApprovalRoute(false)),
    );
    expect(await configuredApprovalRoute(spec.read, organization)).toEqual(financeRoute);
    expect(await configuredApprovalRoute(spec.read, other)).toEqual(defaultApprovalRoute(false));
    expect(await configuredApprovalRoute(spec.read, untouched)).toBeUndefined();
  });

  it('forgets the route on a reset, and takes a route configured after it', async () => {
    const organization = newId();
    await spec.given(configured(organization, financeRoute), reset(organization));
    expect(await configuredApprovalRoute(spec.read, organization)).toBeUndefined();
    await spec.given(configured(organization, financeRoute));
    expect(await configuredApprovalRoute(spec.read, organization)).toEqual(financeRoute);
  });

  it('drops the route of a deleted organisation, leaving the others', async () => {
    const [organization, other] = [newId(), newId()];
    await spec.given(configured(organization, financeRoute), configured(other, financeRoute));
    await spec.given({ stream: `organization-${organization}`, type: 'OrganizationDeleted', data: { organizationId: organization } });
    expect(await configuredApprovalRoute(spec.read, organization)).toBeUndefined();
    expect(await configuredApprovalRoute(spec.read, other)).toEqual(financeRoute);
  });
});
