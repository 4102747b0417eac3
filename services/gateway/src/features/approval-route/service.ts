import { type ApprovalRouteFacts, approvalRouteDecider } from '@eelarve/domain';
import { listRoles } from '@eelarve/projections/accounts/queries';
import { configuredApprovalRoute } from '@eelarve/projections/budget-approval/route-queries';
import { findOrganization, type OrganizationRow } from '@eelarve/projections/organizations/queries';
import { organizationResourceStatuses } from '@eelarve/projections/resource-statuses/queries';
import { APPROVAL_STEPS, type ApprovalRoute, defaultApprovalRoute, DomainError, type OrganizationApprovalRoute } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import type { Caller } from '../../types';
import { organizationInScope } from '../permissions/authorize';

/** The route's settings read the approval routes read model. */
const READ_MODELS = ['approval_routes'] as const;

type ReadDb = ReturnType<typeof readModels>;
type RouteOrganization = Pick<OrganizationRow, 'id' | 'enable_resource_statuses'>;

/** The statuses the organisation has: its own and the defaults, none when it does not use statuses. */
async function statusIdsOf(read: ReadDb, organization: RouteOrganization): Promise<string[]> {
  if (!organization.enable_resource_statuses) return [];
  return (await organizationResourceStatuses(read, organization.id)).map((status) => status.id);
}

/** The route the organisation configured, or the default one until it does. */
async function organizationRoute(read: ReadDb, organization: RouteOrganization): Promise<OrganizationApprovalRoute> {
  const configured = await configuredApprovalRoute(read, organization.id);
  if (configured) return { configured: true, route: configured };
  return { configured: false, route: defaultApprovalRoute(organization.enable_resource_statuses) };
}

/**
 * The route a budget of the organisation follows. A step whose status was deleted after the route
 * was configured leaves the budget's status as it is, rather than naming a status that is gone.
 */
export async function effectiveApprovalRoute(app: FastifyInstance, organizationId: string): Promise<ApprovalRoute> {
  const read = readModels(app.db);
  const organization = await findOrganization(read, organizationId);
  if (!organization) throw new DomainError('ORGANIZATION_NOT_FOUND');
  const { configured, route } = await organizationRoute(read, organization);
  if (!configured) return route;
  const statusIds = await statusIdsOf(read, organization);
  const stepStatuses = Object.fromEntries(
    APPROVAL_STEPS.flatMap((step) => {
      const statusId = route.stepStatuses[step];
      return statusId && statusIds.includes(statusId) ? [[step, statusId]] : [];
    }),
  );
  return { ...route, stepStatuses };
}

/**
 * An organisation's own approval route (issue 10, point 6). The routes declare STATUS_VIEW or
 * STATUS_ADMIN to read and STATUS_ADMIN to change it; here the organisation must be the caller's,
 * and a change needs the organisation to allow status editing (the decider refuses otherwise).
 */
export function approvalRouteService(app: FastifyInstance) {
  const read = () => readModels(app.db);

  /** The organisation of the path, when the caller acts in it; any other is "not found". */
  async function organizationOf(caller: Caller, organizationId: string): Promise<OrganizationRow> {
    await organizationInScope(app, caller.auth, organizationId);
    const organization = await findOrganization(read(), organizationId);
    if (!organization) throw new DomainError('ORGANIZATION_NOT_FOUND');
    return organization;
  }

  async function factsOf(organization: OrganizationRow): Promise<ApprovalRouteFacts> {
    const [statusIds, roles] = await Promise.all([statusIdsOf(read(), organization), listRoles(read(), organization.id)]);
    return {
      editingAllowed: organization.allow_resource_status_editing,
      statusIds,
      defaultRoleIds: roles.filter((role) => role.type === 'DEFAULT').map((role) => role.id),
    };
  }

  return {
    async get(caller: Caller, organizationId: string): Promise<OrganizationApprovalRoute> {
      return organizationRoute(read(), await organizationOf(caller, organizationId));
    },

    async configure(caller: Caller, organizationId: string, route: ApprovalRoute) {
      const organization = await organizationOf(caller, organizationId);
      const facts = await factsOf(organization);
      return app.commands.run({
        decider: approvalRouteDecider,
        command: { type: 'ConfigureApprovalRoute', organizationId: organization.id, route, facts },
        actor: caller.actor,
        readModels: READ_MODELS,
      });
    },

    async reset(caller: Caller, organizationId: string) {
      const organization = await organizationOf(caller, organizationId);
      return app.commands.run({
        decider: approvalRouteDecider,
        command: { type: 'ResetApprovalRoute', organizationId: organization.id, editingAllowed: organization.allow_resource_status_editing },
        actor: caller.actor,
        readModels: READ_MODELS,
      });
    },
  };
}
