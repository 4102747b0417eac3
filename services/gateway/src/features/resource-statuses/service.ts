import { type ResourceStatusCommand, type ResourceStatusEditFacts, resourceStatusDecider } from '@eelarve/domain';
import { listRoles } from '@eelarve/projections/accounts/queries';
import { findOrganization, type OrganizationRow } from '@eelarve/projections/organizations/queries';
import { findResourceStatus, organizationResourceStatuses, resourcesWithStatus, statusesOverridingRole } from '@eelarve/projections/resource-statuses/queries';
import { DomainError, fieldError, type ResourceStatus, type ResourceStatusFields } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import type { CommandContext } from '../../infrastructure/command-runner';
import type { Caller } from '../../types';
import { organizationInScope } from '../permissions/authorize';
import { toResourceStatus } from './responses';

/** The settings screen and `me` read the statuses. */
const READ_MODELS = ['resource_statuses'] as const;

type ReadDb = ReturnType<typeof readModels>;

/**
 * Whether the organisation has the status (its own or a default one). The document and budget
 * forms call this for `resourceStatusId`: an id of no status of the organisation is refused.
 */
export async function assertResourceStatusInOrganization(
  app: FastifyInstance,
  organizationId: string,
  statusId: string | null,
  field = 'resourceStatusId',
): Promise<void> {
  if (statusId === null) return;
  const status = await findResourceStatus(readModels(app.db), organizationId, statusId);
  if (!status) throw fieldError('RESOURCE_STATUS_NOT_FOUND', field, 'no such resource status in the organisation');
}

/**
 * The status field of the document and budget forms (spec 2, section 2): shown, and so required,
 * when the organisation uses resource statuses; hidden otherwise. An organisation without statuses
 * has none (`me` lists none), so any id sent there names no status of it and is refused like an
 * unknown one rather than silently dropped.
 */
export async function assertResourceStatusField(app: FastifyInstance, organizationId: string, statusId: string | null): Promise<void> {
  const organization = await findOrganization(readModels(app.db), organizationId);
  if (!organization?.enable_resource_statuses) {
    if (statusId !== null) throw fieldError('RESOURCE_STATUS_NOT_FOUND', 'resourceStatusId', 'the organisation does not use resource statuses');
    return;
  }
  if (statusId === null) throw fieldError('SCHEMA_VALIDATION_ERROR', 'resourceStatusId', 'validation.required', 'a resource status is required');
  await assertResourceStatusInOrganization(app, organizationId, statusId);
}

/** The organisation's statuses as `me` lists them: none when it does not use statuses. */
export async function resourceStatusesOf(
  read: ReadDb,
  organization: Pick<OrganizationRow, 'id' | 'enable_resource_statuses'> | undefined,
): Promise<ResourceStatus[]> {
  if (!organization?.enable_resource_statuses) return [];
  return (await organizationResourceStatuses(read, organization.id)).map(toResourceStatus);
}

/**
 * A deleted role leaves every status rule that overrode it (spec 1, section 6). Runs after the
 * role's deletion, whatever the organisation allows, and answers the warning the screen shows.
 */
export async function removeRoleFromResourceStatuses(app: FastifyInstance, caller: Caller, organizationId: string, roleId: string) {
  const statusIds = await statusesOverridingRole(readModels(app.db), organizationId, roleId);
  for (const statusId of statusIds) {
    await app.commands.run({
      decider: resourceStatusDecider,
      command: { type: 'RemoveRoleFromResourceStatus', statusId, organizationId, roleId },
      actor: caller.actor,
      readModels: READ_MODELS,
    });
  }
  return statusIds.length === 0 ? [] : [{ code: 'ROLE_REMOVED_FROM_RESOURCE_STATUSES' as const, resourceStatusIds: statusIds }];
}

/**
 * Resource statuses of the caller's organisation (spec 1, sections 4-8). The routes declare
 * STATUS_VIEW/STATUS_ADMIN; here the organisation must use statuses, and edits need it to allow
 * status editing (the decider refuses otherwise).
 */
export function resourceStatusService(app: FastifyInstance) {
  const read = () => readModels(app.db);
  const run = (caller: Caller, command: ResourceStatusCommand | ((context: CommandContext) => ResourceStatusCommand)) =>
    app.commands.run({ decider: resourceStatusDecider, command, actor: caller.actor, readModels: READ_MODELS });

  /** The session's organisation, which must use resource statuses. */
  async function organizationOf(caller: Caller): Promise<OrganizationRow> {
    const organizationId = caller.auth.organizationId;
    if (!organizationId) throw new DomainError('INSUFFICIENT_PERMISSIONS', 'no organisation selected');
    await organizationInScope(app, caller.auth, organizationId);
    const organization = await findOrganization(read(), organizationId);
    if (!organization) throw new DomainError('ORGANIZATION_NOT_FOUND');
    if (!organization.enable_resource_statuses) throw new DomainError('RESOURCE_STATUSES_NOT_ENABLED');
    return organization;
  }

  async function editFacts(organization: OrganizationRow): Promise<ResourceStatusEditFacts> {
    const roles = await listRoles(read(), organization.id);
    return {
      editingAllowed: organization.allow_resource_status_editing,
      language: organization.locale_settings.language === 'en' ? 'en' : 'et',
      defaultRoleIds: roles.filter((role) => role.type === 'DEFAULT').map((role) => role.id),
    };
  }

  /** A status of the organisation; any other id (another organisation's too) is "not found". */
  async function statusInOrganization(organizationId: string, statusId: string) {
    if (!(await findResourceStatus(read(), organizationId, statusId))) throw new DomainError('RESOURCE_STATUS_NOT_FOUND');
  }

  const contentOf = ({ name, description, icon, rules }: ResourceStatusFields) => ({ name, description, icon, rules });

  return {
    async list(caller: Caller): Promise<ResourceStatus[]> {
      const organization = await organizationOf(caller);
      return resourceStatusesOf(read(), organization);
    },

    async create(caller: Caller, input: ResourceStatusFields) {
      const organization = await organizationOf(caller);
      const facts = await editFacts(organization);
      const content = contentOf(input);
      return run(caller, ({ now, newId }) => ({ type: 'CreateResourceStatus', statusId: newId(), organizationId: organization.id, content, facts, now }));
    },

    async update(caller: Caller, statusId: string, input: ResourceStatusFields) {
      const organization = await organizationOf(caller);
      await statusInOrganization(organization.id, statusId);
      return run(caller, {
        type: 'UpdateResourceStatus',
        statusId,
        organizationId: organization.id,
        content: contentOf(input),
        facts: await editFacts(organization),
      });
    },

    async reset(caller: Caller, statusId: string) {
      const organization = await organizationOf(caller);
      await statusInOrganization(organization.id, statusId);
      return run(caller, {
        type: 'ResetResourceStatus',
        statusId,
        organizationId: organization.id,
        editingAllowed: organization.allow_resource_status_editing,
      });
    },

    async remove(caller: Caller, statusId: string) {
      const organization = await organizationOf(caller);
      await statusInOrganization(organization.id, statusId);
      return run(caller, {
        type: 'DeleteResourceStatus',
        statusId,
        organizationId: organization.id,
        editingAllowed: organization.allow_resource_status_editing,
        usedBy: await resourcesWithStatus(readModels(app.db), organization.id, statusId),
      });
    },
  };
}
