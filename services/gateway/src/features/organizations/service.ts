import { type OrganizationCommand, type OrganizationSettings, organizationDecider } from '@eelarve/domain';
import { listOrganizations, type OrganizationRow } from '@eelarve/projections/organizations/queries';
import type { AuthenticationType, LocaleCode, Organization, organizationInputSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { CommandContext } from '../../infrastructure/command-runner';
import { readModels } from '../../infrastructure/database';
import type { Caller } from '../../types';

type OrganizationInput = z.output<typeof organizationInputSchema>;

/** The screens that show organisations read this projector: commands wait for it. */
const READ_MODELS = ['organizations'] as const;

function toOrganization(row: OrganizationRow): Organization {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at.toISOString(),
    nrOfUsers: row.nr_of_users,
    localeCode: row.locale_code as LocaleCode,
    localeSettings: row.locale_settings,
    enableResourceStatuses: row.enable_resource_statuses,
    allowResourceStatusEditing: row.allow_resource_status_editing,
    allowedAuthenticationTypes: row.allowed_authentication_types as AuthenticationType[],
    apiUsageAllowed: row.api_usage_allowed,
    sessionLength: row.session_length,
    sessionLengthMultiplier: Number(row.session_length_multiplier),
    isPlatform: row.is_platform,
  };
}

const settingsFrom = (input: OrganizationInput): OrganizationSettings => ({
  ...input,
  localeSettings: input.localeSettings as OrganizationSettings['localeSettings'],
});

/**
 * Organisations (platform administration). The routes declare IS_ADMIN; the authorisation module
 * checks it before any of these run, so they need no further access check.
 */
export function organizationService(app: FastifyInstance) {
  const run = (caller: Caller, command: OrganizationCommand | ((context: CommandContext) => OrganizationCommand)) =>
    app.commands.run({ decider: organizationDecider, command, actor: caller.actor, readModels: READ_MODELS });

  return {
    list: async (_caller: Caller): Promise<Organization[]> => (await listOrganizations(readModels(app.db))).map(toOrganization),
    create: (caller: Caller, input: OrganizationInput) =>
      run(caller, ({ now, newId }) => ({ type: 'CreateOrganization', organizationId: newId(), settings: settingsFrom(input), isPlatform: false, now })),
    update: (caller: Caller, organizationId: string, input: OrganizationInput) =>
      run(caller, { type: 'UpdateOrganization', organizationId, settings: settingsFrom(input) }),
    remove: (caller: Caller, organizationId: string) =>
      run(caller, { type: 'DeleteOrganization', organizationId, inUseBySession: caller.auth.organizationId === organizationId }),
  };
}
