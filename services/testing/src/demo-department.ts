import { userDecider } from '@eelarve/domain';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '@eelarve/gateway/features/auth/passwords';
import { type AppConfig, DEMO_ADMIN } from '@eelarve/gateway/config';
import { executeCommand } from '@eelarve/gateway/infrastructure/commands';
import type { DemoDocument } from './demo-document';
import type { DemoSession } from './demo-session';

/**
 * A department of the demo organisation, to show what grants are for: the education department's
 * budget officer reads the main budget and updates only its education sub-budget, and sees no
 * other budget of the document.
 */
export const DEMO_DEPARTMENT = {
  email: 'haridus@eelarve.local',
  userName: 'Liis Kask',
  occupationName: 'Haridusosakond',
  roleName: 'Osakonna eelarvestaja',
  /** The activity code of the one sub-budget the department may update. */
  subBudgetCode: '09',
} as const;

/**
 * The department signs in with the demo password, and only when the administrator has the demo
 * password too: never with a password somebody chose (BOOTSTRAP_ADMIN_PASSWORD), so never in
 * production, where the demo password is refused. Otherwise the user exists without a password.
 */
export function demoDepartmentLogin(config: Pick<AppConfig, 'bootstrapAdmin'>): string | null {
  return config.bootstrapAdmin?.password === DEMO_ADMIN.password ? DEMO_DEPARTMENT.email : null;
}

export async function seedDemoDepartment(app: FastifyInstance, { post, put }: DemoSession, organizationId: string, demo: DemoDocument): Promise<void> {
  const roleId = await post(`/api/organization/${organizationId}/role`, { name: DEMO_DEPARTMENT.roleName, privilegeIds: ['DATA_VIEW'] });
  const userId = await post(`/api/organization/${organizationId}/user`, { name: DEMO_DEPARTMENT.userName, email: DEMO_DEPARTMENT.email });
  const occupationId = await post(`/api/organization/${organizationId}/occupation`, {
    userId,
    name: DEMO_DEPARTMENT.occupationName,
    roles: [roleId],
  });
  const { documentId, mainBudgetId } = demo;
  const subBudgetId = demo.subBudgetIds[DEMO_DEPARTMENT.subBudgetCode];
  await put(`/api/occupation/${occupationId}/permissions`, {
    permissions: [
      { documentId, budgetId: mainBudgetId, read: true, update: false },
      { documentId, budgetId: mainBudgetId, subBudgetId, read: true, update: true },
    ],
  });
  if (demoDepartmentLogin(app.config)) await activate(app, userId, DEMO_ADMIN.password);
}

/**
 * What registering would do (as the test fixture's `activate`): a password and a confirmed
 * e-mail. There is no route that sets another user's password, by design.
 */
async function activate(app: FastifyInstance, userId: string, password: string): Promise<void> {
  await app.db
    .insertInto('operational.credentials')
    .values({ user_id: userId, password_hash: await hashPassword(password) })
    .execute();
  const actor = { correlationId: `demo-${userId}`, userId: null, occupationId: null, organizationId: null };
  const outcome = await executeCommand(app.store, userDecider, { type: 'ConfirmEmail', userId, now: new Date() }, actor);
  if (outcome.position) await app.projections.waitForPosition(['accounts'], outcome.position, 10_000);
}
