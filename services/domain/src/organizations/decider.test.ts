import { DomainError, defaultLocaleSettings } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { givenFor } from '../testing';
import { type OrganizationCommand, organizationDecider } from './decider';
import type { OrganizationEvent, OrganizationSettings } from './events';

const id = '6c1b8e8e-3a43-4d55-9d36-5b7f1d2b0c01';
const settings: OrganizationSettings = {
  name: 'Tartu Linnavalitsus',
  localeCode: 'et',
  localeSettings: defaultLocaleSettings('et'),
  enableResourceStatuses: false,
  allowResourceStatusEditing: false,
  allowedAuthenticationTypes: ['LOGIN'],
  apiUsageAllowed: false,
  sessionLength: 30,
  sessionLengthMultiplier: 86_400_000,
};

const given = givenFor<OrganizationCommand, OrganizationEvent, ReturnType<typeof organizationDecider.initialState>>(organizationDecider);

const created: OrganizationEvent = {
  type: 'OrganizationCreated',
  data: { organizationId: id, ...settings, isPlatform: false, createdAt: '2026-01-01T00:00:00.000Z' },
};

function expectCode(run: () => unknown, code: string) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(code);
    return;
  }
  throw new Error(`expected ${code}`);
}

describe('organization decider', () => {
  it('creates an organisation, adding BASIC when API usage is allowed', () => {
    const events = given([]).when({
      type: 'CreateOrganization',
      organizationId: id,
      settings: { ...settings, apiUsageAllowed: true },
      isPlatform: false,
      now: new Date('2026-01-01T00:00:00Z'),
    })();
    expect(events).toEqual([{ type: 'OrganizationCreated', data: { ...created.data, apiUsageAllowed: true, allowedAuthenticationTypes: ['LOGIN', 'BASIC'] } }]);
  });

  it('drops BASIC when API usage is not allowed', () => {
    const events = given([created]).when({
      type: 'UpdateOrganization',
      organizationId: id,
      settings: { ...settings, allowedAuthenticationTypes: ['LOGIN', 'BASIC', 'PASS'] },
    })();
    expect(events[0]?.data).toMatchObject({ allowedAuthenticationTypes: ['LOGIN', 'PASS'] });
  });

  it('records nothing when an update changes nothing', () => {
    expect(given([created]).when({ type: 'UpdateOrganization', organizationId: id, settings })()).toEqual([]);
  });

  it('refuses to disable resource statuses once enabled', () => {
    const enabled: OrganizationEvent = { type: 'OrganizationUpdated', data: { organizationId: id, ...settings, enableResourceStatuses: true } };
    expectCode(given([created, enabled]).when({ type: 'UpdateOrganization', organizationId: id, settings }), 'RESOURCE_STATUSES_CANNOT_BE_DISABLED');
  });

  it('refuses to delete the organisation the session works in', () => {
    expectCode(given([created]).when({ type: 'DeleteOrganization', organizationId: id, inUseBySession: true }), 'ORGANIZATION_IN_USE');
  });

  it('refuses to delete the platform organisation', () => {
    const platform: OrganizationEvent = { type: 'OrganizationCreated', data: { ...created.data, isPlatform: true } };
    expectCode(given([platform]).when({ type: 'DeleteOrganization', organizationId: id, inUseBySession: false }), 'ORGANIZATION_UNSUITABLE');
  });

  it('deletes, after which the organisation is gone for updates', () => {
    const deleted = given([created]).when({ type: 'DeleteOrganization', organizationId: id, inUseBySession: false })();
    expect(deleted).toEqual([{ type: 'OrganizationDeleted', data: { organizationId: id } }]);
    expectCode(given([created, ...deleted]).when({ type: 'UpdateOrganization', organizationId: id, settings }), 'ORGANIZATION_NOT_FOUND');
  });
});
