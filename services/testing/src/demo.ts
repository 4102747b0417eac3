import { randomUUID } from 'node:crypto';
import { organizationDecider, type OrganizationSettings } from '@eelarve/domain';
import { defaultLocaleSettings, MS_PER_DAY } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { executeCommand } from '@eelarve/gateway/infrastructure/commands';
import { seedDemoDepartment } from './demo-department';
import { seedDemoDocument, submitInvestments } from './demo-document';
import { seedDemoRecords } from './demo-records';
import { administratorSession } from './demo-session';
import { readModels } from '@eelarve/gateway/infrastructure/database';

export { DEMO_DEPARTMENT, demoDepartmentLogin } from './demo-department';

type DemoOrganization = Pick<OrganizationSettings, 'name' | 'localeCode' | 'allowedAuthenticationTypes' | 'apiUsageAllowed' | 'sessionLength'> &
  Partial<Pick<OrganizationSettings, 'enableResourceStatuses' | 'allowResourceStatusEditing'>>;

const DEMO_ORGANIZATIONS: DemoOrganization[] = [
  // Uses resource statuses (which cannot be switched off again) to show them and the approval route.
  {
    name: 'Tartu Linnavalitsus',
    localeCode: 'et',
    allowedAuthenticationTypes: ['LOGIN', 'PASS'],
    apiUsageAllowed: true,
    sessionLength: 30,
    enableResourceStatuses: true,
    allowResourceStatusEditing: true,
  },
  {
    name: 'Haridus- ja Teadusministeerium',
    localeCode: 'et',
    allowedAuthenticationTypes: ['LOGIN_WITH_MFA', 'PASS'],
    apiUsageAllowed: false,
    sessionLength: 7,
  },
  { name: 'Estonian Road Administration', localeCode: 'en', allowedAuthenticationTypes: ['LOGIN'], apiUsageAllowed: true, sessionLength: 14 },
];

/**
 * A few organisations, and in the first one a budget document with classifiers, a scheme,
 * sub-budgets and budgets under resource statuses, one of them submitted for approval
 * (demo-document.ts), about two thousand budget lines in its common budgets (demo-records.ts), and a department that may see one budget and update one of its
 * sub-budgets (demo-department.ts), so a new user sees what the product is for. Runs once, on a
 * database without organisations.
 */
export async function seedDemoData(app: FastifyInstance): Promise<void> {
  const existing = await readModels(app.db).selectFrom('organizations').select('id').where('is_platform', '=', false).limit(1).execute();
  if (existing.length > 0) return;
  const actor = { correlationId: randomUUID(), userId: null, occupationId: null, organizationId: null };
  const created: string[] = [];
  for (const organization of DEMO_ORGANIZATIONS) {
    const settings: OrganizationSettings = {
      enableResourceStatuses: false,
      allowResourceStatusEditing: false,
      ...organization,
      localeSettings: defaultLocaleSettings(organization.localeCode),
      sessionLengthMultiplier: MS_PER_DAY,
    };
    const organizationId = randomUUID();
    const outcome = await executeCommand(
      app.store,
      organizationDecider,
      { type: 'CreateOrganization', organizationId, settings, isPlatform: false, now: new Date() },
      actor,
    );
    if (outcome.position) await app.projections.waitForPosition(['organizations'], outcome.position, 10_000);
    created.push(organizationId);
  }
  const [first] = created;
  if (!first) return;
  const session = await administratorSession(app, first);
  const document = await seedDemoDocument(session, first);
  await seedDemoRecords(app, session, document);
  await submitInvestments(session, document);
  await seedDemoDepartment(app, session, first, document);
}
