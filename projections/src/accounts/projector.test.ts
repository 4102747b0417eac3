import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GivenEvent, newId, type ProjectorSpec, projectorSpec } from '../../test/given-events';
import { organizationsProjector } from '../organizations/projector';
import { accountsProjector } from './projector';
import {
  adminOccupationsOf,
  adminRoleOf,
  duplicateEmails,
  duplicateRoleNames,
  findMember,
  findOccupation,
  findRole,
  findRoles,
  findUserByEmail,
  findUserById,
  heldOccupations,
  listMemberNames,
  listMembers,
  listOccupations,
  listRoles,
  occupationPrivileges,
  occupationsOfUsers,
  otherPlatformAdminExists,
  otherRolesNamed,
  otherUsersWithEmail,
  privilegesOf,
  roleAttached,
  rolesWithIsAdminOutsidePlatform,
  signInOccupations,
} from './queries';

// Accounts queries join organisations (sign-in types, the platform flag): both projectors run.
let spec: ProjectorSpec;
beforeEach(async () => {
  spec = await projectorSpec([accountsProjector, organizationsProjector]);
});
afterEach(async () => spec.close());

const at = (day: number, hour = 8) => `2026-11-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;

function organization(name: string, options: { isPlatform?: boolean; allowed?: string[] } = {}) {
  const organizationId = newId();
  const event: GivenEvent = {
    stream: `organization-${organizationId}`,
    type: 'OrganizationCreated',
    data: {
      organizationId,
      name,
      localeCode: 'et',
      localeSettings: { language: 'et', decimalSeparator: ',' },
      enableResourceStatuses: false,
      allowResourceStatusEditing: false,
      allowedAuthenticationTypes: options.allowed ?? ['LOGIN', 'LOGIN_WITH_MFA'],
      apiUsageAllowed: false,
      sessionLength: 8,
      sessionLengthMultiplier: 3_600_000,
      isPlatform: options.isPlatform ?? false,
      createdAt: at(1),
    },
  };
  return { organizationId, event };
}

const userEvent = (userId: string, type: string, data: Record<string, unknown> = {}, occurredAt = at(3)): GivenEvent => ({
  stream: `user-${userId}`,
  type,
  data: { userId, ...data },
  metadata: { occurredAt },
});

function user(organizationId: string, name: string, email: string) {
  const userId = newId();
  return { userId, event: userEvent(userId, 'UserRegistered', { organizationId, name, email, registeredAt: at(2) }, at(2)) };
}

function role(organizationId: string, name: string, privilegeIds: string[], type: 'ADMIN' | 'DEFAULT' = 'DEFAULT') {
  const roleId = newId();
  return {
    roleId,
    event: { stream: `role-${roleId}`, type: 'RoleCreated', data: { roleId, organizationId, name, description: `${name} (kirjeldus)`, privilegeIds, type } },
  };
}

function occupation(organizationId: string, userId: string, name: string, roleIds: string[], type: 'ADMIN' | 'DEFAULT' = 'DEFAULT') {
  const occupationId = newId();
  return {
    occupationId,
    event: {
      stream: `occupation-${occupationId}`,
      type: 'OccupationCreated',
      data: { occupationId, organizationId, userId, name, description: '', type, roleIds },
    },
  };
}

describe('accounts projector: users', () => {
  it('given a registration, finds the user by id and by e-mail in any case, unconfirmed and without sign-in methods', async () => {
    const tartu = organization('Tartu linn');
    const mari = user(tartu.organizationId, 'Mari Maasikas', 'Mari.Maasikas@tartu.ee');
    await spec.given(tartu.event, mari.event);
    const row = await findUserById(spec.read, mari.userId);
    expect(row).toMatchObject({
      organization_id: tartu.organizationId,
      name: 'Mari Maasikas',
      email: 'Mari.Maasikas@tartu.ee',
      confirmed_at: null,
      has_password: false,
      mfa_added: false,
      has_personal_code: false,
      language: null,
    });
    expect(row?.registered_at.toISOString()).toBe(at(2));
    expect(row?.updated_at.toISOString()).toBe(at(2));
    expect((await findUserByEmail(spec.read, '  mari.maasikas@TARTU.ee '))?.id).toBe(mari.userId);
    expect(await otherUsersWithEmail(spec.read, 'mari.maasikas@tartu.ee', newId())).toEqual([mari.userId]);
    expect(await otherUsersWithEmail(spec.read, 'mari.maasikas@tartu.ee', mari.userId)).toEqual([]);
  });

  it('records each change of the user and when it happened', async () => {
    const tartu = organization('Tartu linn');
    const mari = user(tartu.organizationId, 'Mari Maasikas', 'mari@tartu.ee');
    const { userId } = mari;
    await spec.given(
      tartu.event,
      mari.event,
      userEvent(userId, 'UserPasswordSet'),
      userEvent(userId, 'UserEmailConfirmed', { confirmedAt: at(3, 9) }),
      userEvent(userId, 'UserMfaEnabled'),
      userEvent(userId, 'UserElectronicIdBound'),
      userEvent(userId, 'UserLanguageSet', { language: 'en' }),
      userEvent(userId, 'UserUpdated', { name: 'Mari Kask', email: 'mari.kask@tartu.ee' }, at(4)),
    );
    const row = await findUserById(spec.read, userId);
    expect(row).toMatchObject({ name: 'Mari Kask', email: 'mari.kask@tartu.ee', has_password: true, mfa_added: true, has_personal_code: true, language: 'en' });
    expect(row?.confirmed_at?.toISOString()).toBe(at(3, 9));
    expect(row?.updated_at.toISOString()).toBe(at(4));

    await spec.given(
      userEvent(userId, 'UserEmailChanged', { email: 'mari@kask.ee' }, at(5)),
      userEvent(userId, 'UserMfaDisabled', {}, at(5)),
      userEvent(userId, 'UserElectronicIdUnbound', {}, at(5)),
    );
    expect(await findUserById(spec.read, userId)).toMatchObject({ email: 'mari@kask.ee', mfa_added: false, has_personal_code: false, has_password: true });
    expect(await findUserByEmail(spec.read, 'mari.kask@tartu.ee')).toBeUndefined();

    await spec.given(userEvent(userId, 'UserMfaEnabled', {}, at(6)), userEvent(userId, 'UserAuthMethodsRemoved', {}, at(7)));
    const cleared = await findUserById(spec.read, userId);
    expect(cleared).toMatchObject({ has_password: false, mfa_added: false, has_personal_code: false });
    expect(cleared?.updated_at.toISOString()).toBe(at(7));
  });

  it('removes a deleted user from every query', async () => {
    const tartu = organization('Tartu linn');
    const mari = user(tartu.organizationId, 'Mari', 'mari@tartu.ee');
    await spec.given(tartu.event, mari.event, userEvent(mari.userId, 'UserDeleted', { organizationId: tartu.organizationId }));
    expect(await findUserById(spec.read, mari.userId)).toBeUndefined();
    expect(await findUserByEmail(spec.read, 'mari@tartu.ee')).toBeUndefined();
    expect(await listMembers(spec.read, tartu.organizationId)).toEqual([]);
  });

  it('lists as members those registered in the organisation and those holding an occupation there, by name', async () => {
    const tartu = organization('Tartu linn');
    const elva = organization('Elva vald');
    const tiit = user(tartu.organizationId, 'Tiit Tamm', 'tiit@tartu.ee');
    const anu = user(tartu.organizationId, 'Anu Saar', 'anu@tartu.ee');
    const visitor = user(elva.organizationId, 'Kalle Kask', 'kalle@elva.ee');
    const stranger = user(elva.organizationId, 'Liis Lepp', 'liis@elva.ee');
    const visiting = occupation(tartu.organizationId, visitor.userId, 'Administrator', [], 'ADMIN');
    await spec.given(tartu.event, elva.event, tiit.event, anu.event, visitor.event, stranger.event, visiting.event);

    expect((await listMembers(spec.read, tartu.organizationId)).map((row) => row.name)).toEqual(['Anu Saar', 'Kalle Kask', 'Tiit Tamm']);
    expect(await listMemberNames(spec.read, tartu.organizationId)).toEqual([
      { id: anu.userId, name: 'Anu Saar' },
      { id: visitor.userId, name: 'Kalle Kask' },
      { id: tiit.userId, name: 'Tiit Tamm' },
    ]);
    expect((await findMember(spec.read, tartu.organizationId, visitor.userId))?.organization_id).toBe(elva.organizationId);
    expect(await findMember(spec.read, tartu.organizationId, stranger.userId)).toBeUndefined();
  });
});

describe('accounts projector: roles', () => {
  it('given created roles, lists the organisation’s roles by name with whether an occupation carries them', async () => {
    const tartu = organization('Tartu linn');
    const elva = organization('Elva vald');
    const planner = role(tartu.organizationId, 'Planeerija', ['DATA_VIEW', 'DATA_EDIT']);
    const admin = role(tartu.organizationId, 'ADMIN', ['USER_ADMIN', 'ROLES_ADMIN'], 'ADMIN');
    const elsewhere = role(elva.organizationId, 'Planeerija', ['DATA_VIEW']);
    const mari = user(tartu.organizationId, 'Mari', 'mari@tartu.ee');
    const work = occupation(tartu.organizationId, mari.userId, 'Eelarvespetsialist', [planner.roleId]);
    await spec.given(tartu.event, elva.event, planner.event, admin.event, elsewhere.event, mari.event, work.event);

    const roles = await listRoles(spec.read, tartu.organizationId);
    expect(roles.map(({ name, type, in_use, privilege_ids }) => ({ name, type, in_use, privilege_ids }))).toEqual([
      { name: 'ADMIN', type: 'ADMIN', in_use: false, privilege_ids: ['USER_ADMIN', 'ROLES_ADMIN'] },
      { name: 'Planeerija', type: 'DEFAULT', in_use: true, privilege_ids: ['DATA_VIEW', 'DATA_EDIT'] },
    ]);
    expect(await findRole(spec.read, planner.roleId)).toMatchObject({ organization_id: tartu.organizationId, description: 'Planeerija (kirjeldus)' });
    expect((await adminRoleOf(spec.read, tartu.organizationId))?.id).toBe(admin.roleId);
    expect(await adminRoleOf(spec.read, elva.organizationId)).toBeUndefined();
    expect(await roleAttached(spec.read, planner.roleId)).toBe(true);
    expect(await roleAttached(spec.read, admin.roleId)).toBe(false);
    expect((await findRoles(spec.read, [planner.roleId, newId(), elsewhere.roleId])).map((row) => row.id).sort()).toEqual(
      [planner.roleId, elsewhere.roleId].sort(),
    );
    expect(await privilegesOf(spec.read, [planner.roleId, admin.roleId])).toEqual(['DATA_EDIT', 'DATA_VIEW', 'ROLES_ADMIN', 'USER_ADMIN']);
    expect(await privilegesOf(spec.read, [])).toEqual([]);
    expect(await otherRolesNamed(spec.read, tartu.organizationId, 'planeerija', newId())).toEqual([planner.roleId]);
    expect(await otherRolesNamed(spec.read, tartu.organizationId, 'planeerija', planner.roleId)).toEqual([]);
  });

  it('given an update, answers with the new name, description and privileges', async () => {
    const tartu = organization('Tartu linn');
    const planner = role(tartu.organizationId, 'Planeerija', ['DATA_VIEW']);
    await spec.given(tartu.event, planner.event, {
      stream: `role-${planner.roleId}`,
      type: 'RoleUpdated',
      data: {
        roleId: planner.roleId,
        organizationId: tartu.organizationId,
        name: 'Vanemplaneerija',
        description: 'Kinnitab eelarveid',
        privilegeIds: ['DATA_VIEW', 'DATA_EDIT'],
      },
    });
    expect(await findRole(spec.read, planner.roleId)).toMatchObject({
      name: 'Vanemplaneerija',
      description: 'Kinnitab eelarveid',
      privilege_ids: ['DATA_VIEW', 'DATA_EDIT'],
    });
  });

  it('given a deletion, drops the role and takes it off every occupation that carried it', async () => {
    const tartu = organization('Tartu linn');
    const planner = role(tartu.organizationId, 'Planeerija', ['DATA_VIEW']);
    const viewer = role(tartu.organizationId, 'Vaataja', ['USER_VIEW']);
    const mari = user(tartu.organizationId, 'Mari', 'mari@tartu.ee');
    const work = occupation(tartu.organizationId, mari.userId, 'Spetsialist', [planner.roleId, viewer.roleId]);
    await spec.given(tartu.event, planner.event, viewer.event, mari.event, work.event, {
      stream: `role-${planner.roleId}`,
      type: 'RoleDeleted',
      data: { roleId: planner.roleId, organizationId: tartu.organizationId },
    });
    expect(await findRole(spec.read, planner.roleId)).toBeUndefined();
    expect((await findOccupation(spec.read, work.occupationId))?.role_ids).toEqual([viewer.roleId]);
    expect((await listRoles(spec.read, tartu.organizationId)).map((row) => row.name)).toEqual(['Vaataja']);
  });

  it('finds IS_ADMIN in roles outside the platform organisation only', async () => {
    const platform = organization('Eelarve', { isPlatform: true });
    const tartu = organization('Tartu linn');
    const platformAdmin = role(platform.organizationId, 'ADMIN', ['IS_ADMIN', 'USER_ADMIN'], 'ADMIN');
    const planted = role(tartu.organizationId, 'Operaator', ['IS_ADMIN', 'DATA_VIEW']);
    const plain = role(tartu.organizationId, 'Planeerija', ['DATA_VIEW']);
    await spec.given(platform.event, tartu.event, platformAdmin.event, planted.event, plain.event);
    expect((await rolesWithIsAdminOutsidePlatform(spec.read)).map((row) => row.id)).toEqual([planted.roleId]);
  });
});

describe('accounts projector: occupations', () => {
  it('given occupations, lists the organisation’s by name with the holder’s name', async () => {
    const tartu = organization('Tartu linn');
    const mari = user(tartu.organizationId, 'Mari Maasikas', 'mari@tartu.ee');
    const tiit = user(tartu.organizationId, 'Tiit Tamm', 'tiit@tartu.ee');
    const planner = role(tartu.organizationId, 'Planeerija', ['DATA_VIEW']);
    const chief = occupation(tartu.organizationId, tiit.userId, 'Pearaamatupidaja', [planner.roleId]);
    const specialist = occupation(tartu.organizationId, mari.userId, 'Eelarvespetsialist', []);
    await spec.given(tartu.event, mari.event, tiit.event, planner.event, chief.event, specialist.event);
    const rows = await listOccupations(spec.read, tartu.organizationId);
    expect(rows.map(({ name, user_name, type, role_ids }) => ({ name, user_name, type, role_ids }))).toEqual([
      { name: 'Eelarvespetsialist', user_name: 'Mari Maasikas', type: 'DEFAULT', role_ids: [] },
      { name: 'Pearaamatupidaja', user_name: 'Tiit Tamm', type: 'DEFAULT', role_ids: [planner.roleId] },
    ]);
    expect(await heldOccupations(spec.read, mari.userId)).toEqual({ any: true, admin: false });
    expect((await occupationsOfUsers(spec.read, [mari.userId, tiit.userId])).map((row) => row.name)).toEqual(['Eelarvespetsialist', 'Pearaamatupidaja']);
    expect(await occupationsOfUsers(spec.read, [])).toEqual([]);
  });

  it('given an update, moves the occupation to its new holder with the new roles', async () => {
    const tartu = organization('Tartu linn');
    const mari = user(tartu.organizationId, 'Mari', 'mari@tartu.ee');
    const tiit = user(tartu.organizationId, 'Tiit', 'tiit@tartu.ee');
    const planner = role(tartu.organizationId, 'Planeerija', ['DATA_VIEW']);
    const work = occupation(tartu.organizationId, mari.userId, 'Spetsialist', []);
    await spec.given(tartu.event, mari.event, tiit.event, planner.event, work.event, {
      stream: `occupation-${work.occupationId}`,
      type: 'OccupationUpdated',
      data: {
        occupationId: work.occupationId,
        organizationId: tartu.organizationId,
        userId: tiit.userId,
        name: 'Vanemspetsialist',
        description: 'Kinnitab',
        roleIds: [planner.roleId],
      },
    });
    expect(await findOccupation(spec.read, work.occupationId)).toMatchObject({
      user_id: tiit.userId,
      name: 'Vanemspetsialist',
      description: 'Kinnitab',
      role_ids: [planner.roleId],
    });
    expect(await heldOccupations(spec.read, mari.userId)).toEqual({ any: false, admin: false });
  });

  it('given a deletion, the occupation is gone; an admin occupation given again under its id comes back', async () => {
    const tartu = organization('Tartu linn');
    const mari = user(tartu.organizationId, 'Mari', 'mari@tartu.ee');
    const admin = occupation(tartu.organizationId, mari.userId, 'Administrator', [], 'ADMIN');
    const deleted = {
      stream: admin.event.stream,
      type: 'OccupationDeleted',
      data: { occupationId: admin.occupationId, organizationId: tartu.organizationId, userId: mari.userId },
    };
    await spec.given(tartu.event, mari.event, admin.event, deleted);
    expect(await findOccupation(spec.read, admin.occupationId)).toBeUndefined();
    expect(await adminOccupationsOf(spec.read, tartu.organizationId)).toEqual([]);
    await spec.given(admin.event);
    expect(await adminOccupationsOf(spec.read, tartu.organizationId)).toEqual([{ id: admin.occupationId, user_id: mari.userId }]);
    expect(await heldOccupations(spec.read, mari.userId)).toEqual({ any: true, admin: true });
  });

  it('answers the occupations a user signs into with their organisation’s sign-in rules', async () => {
    const tartu = organization('Tartu linn', { allowed: ['LOGIN_WITH_MFA', 'PASS'] });
    const mari = user(tartu.organizationId, 'Mari', 'mari@tartu.ee');
    const work = occupation(tartu.organizationId, mari.userId, 'Spetsialist', []);
    await spec.given(tartu.event, mari.event, work.event);
    expect(await signInOccupations(spec.read, mari.userId)).toEqual([
      {
        id: work.occupationId,
        name: 'Spetsialist',
        type: 'DEFAULT',
        organization_id: tartu.organizationId,
        role_ids: [],
        organization_name: 'Tartu linn',
        allowed_authentication_types: ['LOGIN_WITH_MFA', 'PASS'],
        session_length: 8,
        session_length_multiplier: '3600000',
      },
    ]);
  });

  it('grants an occupation its own organisation’s role privileges, IS_ADMIN only in the platform organisation', async () => {
    const platform = organization('Eelarve', { isPlatform: true });
    const tartu = organization('Tartu linn');
    const admin = user(platform.organizationId, 'Administrator', 'admin@eelarve.ee');
    const operator = user(tartu.organizationId, 'Operaator', 'operaator@tartu.ee');
    const platformRole = role(platform.organizationId, 'ADMIN', ['IS_ADMIN', 'USER_ADMIN'], 'ADMIN');
    const planted = role(tartu.organizationId, 'Operaator', ['IS_ADMIN', 'DATA_VIEW']);
    const foreign = role(platform.organizationId, 'Vaataja', ['USER_VIEW']);
    const adminWork = occupation(platform.organizationId, admin.userId, 'Administrator', [platformRole.roleId], 'ADMIN');
    const operatorWork = occupation(tartu.organizationId, operator.userId, 'Operaator', [planted.roleId, foreign.roleId]);
    await spec.given(
      platform.event,
      tartu.event,
      admin.event,
      operator.event,
      platformRole.event,
      planted.event,
      foreign.event,
      adminWork.event,
      operatorWork.event,
    );

    expect(await occupationPrivileges(spec.read, admin.userId, adminWork.occupationId)).toEqual(['IS_ADMIN', 'USER_ADMIN']);
    expect(await occupationPrivileges(spec.read, operator.userId, operatorWork.occupationId)).toEqual(['DATA_VIEW']);
    // Someone else's occupation is no occupation of theirs.
    expect(await occupationPrivileges(spec.read, operator.userId, adminWork.occupationId)).toBeNull();
  });

  it('tells whether another occupation would still hold IS_ADMIN without this one', async () => {
    const platform = organization('Eelarve', { isPlatform: true });
    const admin = user(platform.organizationId, 'Administrator', 'admin@eelarve.ee');
    const deputy = user(platform.organizationId, 'Asetäitja', 'asetaitja@eelarve.ee');
    const platformRole = role(platform.organizationId, 'ADMIN', ['IS_ADMIN', 'USER_ADMIN'], 'ADMIN');
    const viewer = role(platform.organizationId, 'Vaataja', ['USER_VIEW']);
    const adminWork = occupation(platform.organizationId, admin.userId, 'Administrator', [platformRole.roleId], 'ADMIN');
    const deputyWork = occupation(platform.organizationId, deputy.userId, 'Vaataja', [viewer.roleId]);
    await spec.given(platform.event, admin.event, deputy.event, platformRole.event, viewer.event, adminWork.event, deputyWork.event);
    expect(await otherPlatformAdminExists(spec.read, adminWork.occupationId)).toBe(false);
    expect(await otherPlatformAdminExists(spec.read, deputyWork.occupationId)).toBe(true);
    await spec.given({
      stream: `occupation-${deputyWork.occupationId}`,
      type: 'OccupationUpdated',
      data: {
        occupationId: deputyWork.occupationId,
        organizationId: platform.organizationId,
        userId: deputy.userId,
        name: 'Administrator',
        description: '',
        roleIds: [platformRole.roleId],
      },
    });
    expect(await otherPlatformAdminExists(spec.read, adminWork.occupationId)).toBe(true);
  });
});

describe('accounts queries: duplicates older versions let through', () => {
  it('groups roles of one organisation sharing a trimmed, case-insensitive name, and users sharing an e-mail', async () => {
    const tartu = organization('Tartu linn');
    const elva = organization('Elva vald');
    const first = role(tartu.organizationId, 'Planeerija', []);
    const second = role(tartu.organizationId, ' planeerija ', []);
    const elsewhere = role(elva.organizationId, 'Planeerija', []);
    const mari = user(tartu.organizationId, 'Mari', 'mari@tartu.ee');
    const twin = user(elva.organizationId, 'Mari', 'MARI@tartu.ee');
    await spec.given(tartu.event, elva.event, first.event, second.event, elsewhere.event, mari.event, twin.event);
    expect(await duplicateRoleNames(spec.read)).toEqual([{ scope: tartu.organizationId, ids: [first.roleId, second.roleId].sort() }]);
    expect(await duplicateEmails(spec.read)).toEqual([{ scope: null, ids: [mari.userId, twin.userId].sort() }]);
  });
});
