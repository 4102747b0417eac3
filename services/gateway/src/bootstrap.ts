import { createHash, randomUUID } from 'node:crypto';
import { type Decider, type DomainEvent, occupationDecider, organizationDecider, roleDecider, userDecider, userStream } from '@eelarve/domain';
import { type EventStore, WrongExpectedRevisionError } from '@eelarve/eventstore';
import { defaultLocaleSettings, MS_PER_DAY, PRIVILEGES, PRODUCT_NAME } from '@eelarve/shared';
import { type CommandRunner, createCommandRunner } from './infrastructure/command-runner';
import { type CommandActor, eventMetadata } from './infrastructure/commands';
import type { AppDatabase } from './infrastructure/database';
import { hashPassword } from './features/auth/passwords';

const MARKER_STREAM = 'platform-bootstrap';

interface BootstrapPlan {
  organizationId: string;
  roleId: string;
  userId: string;
  occupationId: string;
}

/** Event ids derived from the plan make every step an idempotent append on retry. */
function stepEventIds(plan: BootstrapPlan, step: string): string[] {
  const hex = createHash('sha256').update(`${plan.organizationId}:${step}`).digest('hex');
  return [`${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`];
}

/** The first process to start claims the bootstrap by creating the marker stream. */
async function claimPlan(store: EventStore, actor: CommandActor): Promise<BootstrapPlan> {
  const existing = await store.readStream(MARKER_STREAM);
  if (existing[0]) return existing[0].data as BootstrapPlan;
  const plan: BootstrapPlan = { organizationId: randomUUID(), roleId: randomUUID(), userId: randomUUID(), occupationId: randomUUID() };
  try {
    await store.append(MARKER_STREAM, [{ id: randomUUID(), type: 'PlatformBootstrapStarted', data: plan, metadata: eventMetadata(actor, new Date()) }], {
      expectedRevision: 'no_stream',
    });
    return plan;
  } catch (error) {
    if (!(error instanceof WrongExpectedRevisionError)) throw error;
    return (await store.readStream(MARKER_STREAM))[0]!.data as BootstrapPlan;
  }
}

/**
 * The bootstrap's commands wait for no read model (the app waits once, for the last step, before
 * it serves): its runner needs no projection engine.
 */
const NO_READ_MODELS: readonly string[] = [];
const bootstrapRunner = (store: EventStore, db: AppDatabase): CommandRunner =>
  createCommandRunner({ store, db: db as never, projections: { waitForPosition: async () => true }, readYourWritesTimeoutMs: 0 });

async function step<C, E extends DomainEvent, S>(
  store: EventStore,
  commands: CommandRunner,
  decider: Decider<C, E, S>,
  command: C,
  plan: BootstrapPlan,
  name: string,
  actor: CommandActor,
) {
  const stream = decider.streamName(command);
  // Already done by an earlier (possibly interrupted) start.
  if ((await store.readStream(stream, { maxCount: 1 })).length > 0) return;
  await commands.run({ decider, command, actor, readModels: NO_READ_MODELS, eventIds: stepEventIds(plan, name) });
}

export const NO_ADMIN_MESSAGE =
  'no platform administrator yet: production never creates the published demo administrator. Set BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD and start again to create one.';

/** Where the bootstrap's one message goes (the app's logger). */
export interface BootstrapLog {
  warn(message: string): void;
}

/**
 * On an empty database: the platform organisation, its admin role with every privilege, and the
 * platform administrator (BOOTSTRAP_ADMIN_EMAIL / _PASSWORD, or the demo credentials outside
 * production). Without an administrator to create (production without BOOTSTRAP_ADMIN_*) the
 * organisation and role are made and the log says how to add the administrator: a later start
 * with BOOTSTRAP_ADMIN_* continues the same plan.
 */
export async function bootstrapPlatform(
  store: EventStore,
  db: AppDatabase,
  admin: { email: string; password: string } | undefined,
  log?: BootstrapLog,
): Promise<BootstrapPlan> {
  const actor: CommandActor = { correlationId: randomUUID(), userId: null, occupationId: null, organizationId: null };
  const plan = await claimPlan(store, actor);
  const commands = bootstrapRunner(store, db);
  const now = new Date();
  await step(
    store,
    commands,
    organizationDecider,
    {
      type: 'CreateOrganization',
      organizationId: plan.organizationId,
      isPlatform: true,
      now,
      settings: {
        name: PRODUCT_NAME,
        localeCode: 'et',
        localeSettings: defaultLocaleSettings('et'),
        enableResourceStatuses: false,
        allowResourceStatusEditing: false,
        allowedAuthenticationTypes: ['LOGIN', 'LOGIN_WITH_MFA', 'PASS'],
        apiUsageAllowed: false,
        sessionLength: 1,
        sessionLengthMultiplier: MS_PER_DAY,
      },
    },
    plan,
    'organization',
    actor,
  );
  await step(
    store,
    commands,
    roleDecider,
    {
      type: 'CreateRole',
      roleId: plan.roleId,
      organizationId: plan.organizationId,
      name: 'ADMIN',
      description: '',
      privilegeIds: [...PRIVILEGES],
      roleType: 'ADMIN',
    },
    plan,
    'role',
    actor,
  );
  if (!admin) {
    if ((await store.readStream(userStream(plan.userId), { maxCount: 1 })).length === 0) log?.warn(NO_ADMIN_MESSAGE);
    return plan;
  }
  await step(
    store,
    commands,
    userDecider,
    { type: 'RegisterUser', userId: plan.userId, organizationId: plan.organizationId, name: 'Administrator', email: admin.email, now },
    plan,
    'user',
    actor,
  );
  const credential = await db.selectFrom('operational.credentials').select('user_id').where('user_id', '=', plan.userId).executeTakeFirst();
  if (!credential) {
    // Events first: a crash before the credential is stored only repeats them on the next start.
    await commands.run({ decider: userDecider, command: { type: 'SetPassword', userId: plan.userId }, actor, readModels: NO_READ_MODELS });
    await commands.run({ decider: userDecider, command: { type: 'ConfirmEmail', userId: plan.userId, now }, actor, readModels: NO_READ_MODELS });
    await db
      .insertInto('operational.credentials')
      .values({ user_id: plan.userId, password_hash: await hashPassword(admin.password) })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  await step(
    store,
    commands,
    occupationDecider,
    {
      type: 'CreateOccupation',
      occupationId: plan.occupationId,
      organizationId: plan.organizationId,
      userId: plan.userId,
      name: 'Administrator',
      description: '',
      occupationType: 'ADMIN',
      roleIds: [plan.roleId],
    },
    plan,
    'occupation',
    actor,
  );
  return plan;
}
