import { randomUUID } from 'node:crypto';
import { organizationDecider, type OrganizationSettings } from '@eelarve/domain';
import { defaultLocaleSettings, MS_PER_DAY } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { executeCommand } from '@eelarve/gateway/infrastructure/commands';
import { seedDemoDocument } from './demo-document';
import { readModels } from '@eelarve/gateway/infrastructure/database';

const DEMO_ORGANIZATIONS: Array<Pick<OrganizationSettings, 'name' | 'localeCode' | 'allowedAuthenticationTypes' | 'apiUsageAllowed' | 'sessionLength'>> = [
  { name: 'Tartu Linnavalitsus', localeCode: 'et', allowedAuthenticationTypes: ['LOGIN', 'PASS'], apiUsageAllowed: true, sessionLength: 30 },
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
 * sub-budgets and budgets (demo-document.ts), so a new user sees the product with something in
 * it. Runs once, on a database without organisations.
 */
export async function seedDemoData(app: FastifyInstance): Promise<void> {
  const existing = await readModels(app.db).selectFrom('organizations').select('id').where('is_platform', '=', false).limit(1).execute();
  if (existing.length > 0) return;
  const actor = { correlationId: randomUUID(), userId: null, occupationId: null, organizationId: null };
  const created: string[] = [];
  for (const organization of DEMO_ORGANIZATIONS) {
    const settings: OrganizationSettings = {
      ...organization,
      localeSettings: defaultLocaleSettings(organization.localeCode),
      enableResourceStatuses: false,
      allowResourceStatusEditing: false,
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
  if (first) await seedDemoDocument(app, first);
}
