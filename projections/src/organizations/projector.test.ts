import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ProjectorSpec, newId, projectorSpec } from '../../test/given-events';
import { organizationsProjector } from './projector';
import { listOrganizations } from './queries';

const settings = {
  name: 'Tartu linn',
  localeCode: 'et',
  localeSettings: { decimalSeparator: ',' },
  enableResourceStatuses: false,
  allowResourceStatusEditing: false,
  allowedAuthenticationTypes: ['PASSWORD'],
  apiUsageAllowed: true,
  sessionLength: 8,
  sessionLengthMultiplier: 3600,
};

let spec: ProjectorSpec;
beforeEach(async () => {
  spec = await projectorSpec(organizationsProjector);
});
afterEach(async () => spec.close());

const created = (organizationId: string, name: string) => ({
  stream: `organization-${organizationId}`,
  type: 'OrganizationCreated',
  data: { ...settings, name, organizationId, isPlatform: false, createdAt: '2026-11-01T08:00:00.000Z' },
});
const userRegistered = (organizationId: string) => {
  const userId = newId();
  return {
    stream: `user-${userId}`,
    type: 'UserRegistered',
    data: { userId, organizationId, name: 'Mari', email: `${userId}@example.com`, registeredAt: '2026-11-02T08:00:00.000Z' },
  };
};

const occupationCreated = (occupationId: string, organizationId: string, userId: string, type: 'ADMIN' | 'DEFAULT') => ({
  stream: `occupation-${occupationId}`,
  type: 'OccupationCreated',
  data: { occupationId, organizationId, userId, name: type === 'ADMIN' ? 'Administrator' : 'Raamatupidaja', description: '', type, roleIds: [newId()] },
});
const occupationDeleted = (occupationId: string, organizationId: string, userId: string) => ({
  stream: `occupation-${occupationId}`,
  type: 'OccupationDeleted',
  data: { occupationId, organizationId, userId },
});

/** The list's answer as name → number of users. */
async function usersPerOrganization(): Promise<Record<string, number>> {
  return Object.fromEntries((await listOrganizations(spec.read)).map((row) => [row.name, row.nr_of_users]));
}

describe('organizations projector', () => {
  it('given a created organisation, lists it with its settings and no users', async () => {
    const id = newId();
    await spec.given(created(id, 'Tartu linn'));
    const [row] = await listOrganizations(spec.read);
    expect(row).toMatchObject({
      id,
      name: 'Tartu linn',
      locale_code: 'et',
      allowed_authentication_types: ['PASSWORD'],
      session_length: 8,
      nr_of_users: 0,
      is_platform: false,
    });
    expect(row?.created_at.toISOString()).toBe('2026-11-01T08:00:00.000Z');
    expect(Number(row?.session_length_multiplier)).toBe(3600);
  });

  it('given renames and deletions, lists the survivors by name', async () => {
    const [a, b, c] = [newId(), newId(), newId()];
    await spec.given(
      created(a, 'Valga vald'),
      created(b, 'Anija vald'),
      created(c, 'Narva linn'),
      { stream: `organization-${a}`, type: 'OrganizationUpdated', data: { ...settings, organizationId: a, name: 'Elva vald' } },
      { stream: `organization-${c}`, type: 'OrganizationDeleted', data: { organizationId: c } },
    );
    expect((await listOrganizations(spec.read)).map((row) => row.name)).toEqual(['Anija vald', 'Elva vald']);
  });

  it('counts the users registered in each organisation, less the deleted ones', async () => {
    const [a, b] = [newId(), newId()];
    const first = userRegistered(a);
    await spec.given(created(a, 'A'), created(b, 'B'), first, userRegistered(a), userRegistered(b), {
      stream: first.stream,
      type: 'UserDeleted',
      data: { userId: first.data.userId, organizationId: a },
    });
    const counts = Object.fromEntries((await listOrganizations(spec.read)).map((row) => [row.name, row.nr_of_users]));
    expect(counts).toEqual({ A: 1, B: 1 });
  });

  it('counts the holders of an occupation in the organisation as its users, each once', async () => {
    const [home, tartu] = [newId(), newId()];
    const admin = userRegistered(home);
    const clerk = userRegistered(tartu);
    const [adminOccupation, clerkOccupation, secondClerkOccupation] = [newId(), newId(), newId()];
    await spec.given(
      created(home, 'Platvorm'),
      created(tartu, 'Tartu linn'),
      admin,
      clerk,
      // The platform administrator takes an ADMIN occupation in Tartu; the clerk holds two there.
      occupationCreated(adminOccupation, tartu, admin.data.userId, 'ADMIN'),
      occupationCreated(clerkOccupation, tartu, clerk.data.userId, 'DEFAULT'),
      occupationCreated(secondClerkOccupation, tartu, clerk.data.userId, 'DEFAULT'),
    );
    expect(await usersPerOrganization()).toEqual({ Platvorm: 1, 'Tartu linn': 2 });
    const members = await spec.read.selectFrom('organization_members').selectAll().where('organization_id', '=', tartu).orderBy('occupations').execute();
    expect(members).toEqual([
      { organization_id: tartu, user_id: admin.data.userId, registered: false, occupations: 1 },
      { organization_id: tartu, user_id: clerk.data.userId, registered: true, occupations: 2 },
    ]);
  });

  it('lets a user go once their last occupation there goes, unless they were registered there', async () => {
    const [home, tartu] = [newId(), newId()];
    const admin = userRegistered(home);
    const clerk = userRegistered(tartu);
    const [adminOccupation, clerkOccupation] = [newId(), newId()];
    await spec.given(
      created(home, 'Platvorm'),
      created(tartu, 'Tartu linn'),
      admin,
      clerk,
      occupationCreated(adminOccupation, tartu, admin.data.userId, 'ADMIN'),
      occupationCreated(clerkOccupation, tartu, clerk.data.userId, 'DEFAULT'),
      occupationDeleted(adminOccupation, tartu, admin.data.userId),
      occupationDeleted(clerkOccupation, tartu, clerk.data.userId),
    );
    expect(await usersPerOrganization()).toEqual({ Platvorm: 1, 'Tartu linn': 1 });
  });

  it("forgets a deleted user and a deleted organisation's members", async () => {
    const [home, tartu] = [newId(), newId()];
    const clerk = userRegistered(home);
    await spec.given(created(home, 'Platvorm'), created(tartu, 'Tartu linn'), clerk, occupationCreated(newId(), tartu, clerk.data.userId, 'DEFAULT'), {
      stream: `organization-${tartu}`,
      type: 'OrganizationDeleted',
      data: { organizationId: tartu },
    });
    expect(await spec.read.selectFrom('organization_members').select('organization_id').execute()).toEqual([{ organization_id: home }]);
    await spec.given({ stream: clerk.stream, type: 'UserDeleted', data: { userId: clerk.data.userId, organizationId: home } });
    expect(await usersPerOrganization()).toEqual({ Platvorm: 0 });
    expect(await spec.read.selectFrom('organization_members').selectAll().execute()).toEqual([]);
  });
});
