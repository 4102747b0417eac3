import { DomainError } from '@eelarve/shared';
import type { Decider } from '../decider';
import type { OrganizationEvent, OrganizationSettings } from './events';

export type OrganizationState = { status: 'none' } | { status: 'active'; settings: OrganizationSettings; isPlatform: boolean } | { status: 'deleted' };

export type OrganizationCommand =
  | { type: 'CreateOrganization'; organizationId: string; settings: OrganizationSettings; isPlatform: boolean; now: Date }
  | { type: 'UpdateOrganization'; organizationId: string; settings: OrganizationSettings }
  /** `inUseBySession`: the caller's session acts in this organisation. */
  | { type: 'DeleteOrganization'; organizationId: string; inUseBySession: boolean };

export const organizationStream = (organizationId: string) => `organization-${organizationId}`;

/** BASIC stands for API usage (spec 1, section 3), so the flag and the list never disagree. */
export function normaliseSettings(settings: OrganizationSettings): OrganizationSettings {
  const interactive = settings.allowedAuthenticationTypes.filter((type) => type !== 'BASIC');
  const unique = [...new Set(interactive)];
  return { ...settings, allowedAuthenticationTypes: settings.apiUsageAllowed ? [...unique, 'BASIC'] : unique };
}

function create(command: Extract<OrganizationCommand, { type: 'CreateOrganization' }>, state: OrganizationState): OrganizationEvent[] {
  if (state.status !== 'none') throw new DomainError('CONCURRENT_MODIFICATION', 'organization already exists');
  return [
    {
      type: 'OrganizationCreated',
      data: {
        organizationId: command.organizationId,
        ...normaliseSettings(command.settings),
        isPlatform: command.isPlatform,
        createdAt: command.now.toISOString(),
      },
    },
  ];
}

function update(command: Extract<OrganizationCommand, { type: 'UpdateOrganization' }>, state: OrganizationState): OrganizationEvent[] {
  if (state.status !== 'active') throw new DomainError('ORGANIZATION_NOT_FOUND');
  const settings = normaliseSettings(command.settings);
  // Resource statuses, once enabled, cannot be switched off again (spec 1, section 4).
  if (state.settings.enableResourceStatuses && !settings.enableResourceStatuses) {
    throw new DomainError('RESOURCE_STATUSES_CANNOT_BE_DISABLED');
  }
  if (JSON.stringify(settings) === JSON.stringify(state.settings)) return [];
  return [{ type: 'OrganizationUpdated', data: { organizationId: command.organizationId, ...settings } }];
}

function remove(command: Extract<OrganizationCommand, { type: 'DeleteOrganization' }>, state: OrganizationState): OrganizationEvent[] {
  if (state.status !== 'active') throw new DomainError('ORGANIZATION_NOT_FOUND');
  if (command.inUseBySession) throw new DomainError('ORGANIZATION_IN_USE');
  if (state.isPlatform) throw new DomainError('ORGANIZATION_UNSUITABLE', 'the platform organisation cannot be deleted');
  return [{ type: 'OrganizationDeleted', data: { organizationId: command.organizationId } }];
}

function settingsOf(data: OrganizationSettings): OrganizationSettings {
  return {
    name: data.name,
    localeCode: data.localeCode,
    localeSettings: data.localeSettings,
    enableResourceStatuses: data.enableResourceStatuses,
    allowResourceStatusEditing: data.allowResourceStatusEditing,
    allowedAuthenticationTypes: data.allowedAuthenticationTypes,
    apiUsageAllowed: data.apiUsageAllowed,
    sessionLength: data.sessionLength,
    sessionLengthMultiplier: data.sessionLengthMultiplier,
  };
}

export const organizationDecider: Decider<OrganizationCommand, OrganizationEvent, OrganizationState> = {
  streamName: (command) => organizationStream(command.organizationId),
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'OrganizationCreated':
        return { status: 'active', settings: settingsOf(event.data), isPlatform: event.data.isPlatform };
      case 'OrganizationUpdated':
        return state.status === 'active' ? { ...state, settings: settingsOf(event.data) } : state;
      case 'OrganizationDeleted':
        return { status: 'deleted' };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateOrganization':
        return create(command, state);
      case 'UpdateOrganization':
        return update(command, state);
      case 'DeleteOrganization':
        return remove(command, state);
    }
  },
};
