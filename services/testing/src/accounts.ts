import { userDecider } from '@eelarve/domain';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { executeCommand } from '@eelarve/gateway/infrastructure/commands';
import { hashPassword } from '@eelarve/gateway/features/auth/passwords';

/**
 * Fixtures for the users, roles, occupations and isolation API tests: organisations, roles,
 * users and occupations made through the product's own routes by the platform administrator.
 */
export interface Caller {
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
}

export const PASSWORD = 'Accounts-Password-1';

export const organizationPayload = (name: string) => ({
  name,
  localeCode: 'et',
  localeSettings: { language: 'et', dateFormat: 'dd.MM.yyyy', decimalSeparator: 'comma', decimalPlaces: '2', presetResourceStatusIds: 'default' },
  enableResourceStatuses: false,
  allowResourceStatusEditing: false,
  allowedAuthenticationTypes: ['LOGIN', 'PASS'],
  apiUsageAllowed: false,
  sessionLength: 30,
  sessionLengthMultiplier: 86_400_000,
});

async function created(response: LightMyRequestResponse): Promise<string> {
  if (response.statusCode !== 201) throw new Error(`expected 201, got ${response.statusCode} ${response.body}`);
  return response.json().id as string;
}

export function accountsFixture(app: FastifyInstance, admin: Caller) {
  let counter = 0;
  const unique = (prefix: string) => `${prefix}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;

  type OrganizationSettings = Partial<Pick<ReturnType<typeof organizationPayload>, 'enableResourceStatuses' | 'allowResourceStatusEditing'>>;
  const organization = (name = unique('Org'), settings: OrganizationSettings = {}) =>
    admin.request({ method: 'POST', url: '/api/organization', payload: { ...organizationPayload(name), ...settings } }).then(created);
  /** An organisation that uses resource statuses (the default ones); `allowEditing` lets its status administrators edit them. */
  const organizationUsingStatuses = (name = unique('Org'), { allowEditing = false } = {}) =>
    organization(name, { enableResourceStatuses: true, allowResourceStatusEditing: allowEditing });
  const role = (organizationId: string, privilegeIds: string[], name = unique('Role')) =>
    admin.request({ method: 'POST', url: `/api/organization/${organizationId}/role`, payload: { name, privilegeIds } }).then(created);
  const user = (organizationId: string, email = `${unique('user')}@example.com`, name = 'Test User') =>
    admin.request({ method: 'POST', url: `/api/organization/${organizationId}/user`, payload: { name, email } }).then(created);
  const occupation = (organizationId: string, userId: string, roles: string[], name = unique('Occupation')) =>
    admin.request({ method: 'POST', url: `/api/organization/${organizationId}/occupation`, payload: { userId, name, roles } }).then(created);

  /** What the registration flow would do: a password and a confirmed e-mail. */
  async function activate(userId: string): Promise<void> {
    await app.db
      .insertInto('operational.credentials')
      .values({ user_id: userId, password_hash: await hashPassword(PASSWORD) })
      .execute();
    const actor = { correlationId: `test-${userId}`, userId: null, occupationId: null, organizationId: null };
    const outcome = await executeCommand(app.store, userDecider, { type: 'ConfirmEmail', userId, now: new Date() }, actor);
    if (outcome.position) await app.projections.waitForPosition(['accounts'], outcome.position, 5_000);
  }

  /** A user of the organisation who can sign in, with one occupation holding the given privileges. */
  async function member(organizationId: string, privilegeIds: string[]) {
    const email = `${unique('member')}@example.com`;
    const roleId = await role(organizationId, privilegeIds);
    const userId = await user(organizationId, email);
    const occupationId = await occupation(organizationId, userId, [roleId]);
    await activate(userId);
    return { email, userId, roleId, occupationId };
  }

  /**
   * Grants an occupation read or update on resources, as a user administrator does on the
   * permissions screens (PUT api/occupation/{id}/permissions). No documentId: the organisation.
   */
  async function grant(
    occupationId: string,
    permissions: { documentId?: string | null; budgetId?: string | null; subBudgetId?: string | null; read?: boolean; update?: boolean }[],
  ): Promise<void> {
    const payload = { permissions: permissions.map((p) => ({ read: p.read ?? true, update: p.update ?? false, ...p })) };
    const response = await admin.request({ method: 'PUT', url: `/api/occupation/${occupationId}/permissions`, payload });
    if (response.statusCode !== 200) throw new Error(`grant failed: ${response.statusCode} ${response.body}`);
  }

  /** A member (see `member`) whose occupation reads the organisation's documents and budgets (a read grant on the organisation). */
  async function reader(organizationId: string, privilegeIds: string[]) {
    const made = await member(organizationId, privilegeIds);
    await grant(made.occupationId, [{ read: true }]);
    return made;
  }

  return { unique, organization, organizationUsingStatuses, role, user, occupation, activate, member, grant, reader };
}
