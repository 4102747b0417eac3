import type { FastifyInstance } from 'fastify';
import { withAdvisoryLock } from '../infrastructure/advisory-lock';
import { createCommandRunner } from '../infrastructure/command-runner';
import type { CommandActor } from '../infrastructure/commands';
import type { AppDatabase } from '../infrastructure/database';
import { stripPlatformPrivilegeOutsidePlatform } from './platform-privilege';
import { repairDuplicateNames } from './unique-names';

/**
 * One-off data migrations: repairs of domain data that run once per database, at gateway start,
 * through the product's own commands (so read models and the audit trail agree). Each records its
 * report in `operational.one_off_migrations` and in the log; a recorded one never runs again, and
 * each is written to be harmless when run twice anyway.
 */
export interface OneOffReport {
  /** How many problems it found (0: nothing to do). */
  found: number;
  [detail: string]: unknown;
}

export interface OneOffMigration {
  name: string;
  /** The read models it looks in: they must hold every event stored before it starts. */
  readModels: readonly string[];
  run(app: FastifyInstance, actor: CommandActor): Promise<OneOffReport>;
}

export const ONE_OFF_MIGRATIONS: readonly OneOffMigration[] = [
  { name: '2026-11-23-duplicate-unique-names', readModels: ['accounts', 'classifiers'], run: repairDuplicateNames },
  { name: '2026-11-23-is-admin-outside-platform', readModels: ['accounts', 'organizations'], run: stripPlatformPrivilegeOutsidePlatform },
];

/** How long a start waits for the read models to catch up before leaving a migration to the next start. */
const CATCH_UP_MS = 60_000;
const LOCK = 'eelarve.one-off-migrations';

/**
 * Runs the migrations this database has not run yet, one gateway at a time. A failure is logged
 * and leaves the migration unrecorded (it runs again at the next start); the gateway still starts.
 */
export async function runOneOffMigrations(app: FastifyInstance, migrations: readonly OneOffMigration[] = ONE_OFF_MIGRATIONS): Promise<void> {
  await runPending(app, migrations).catch((error) => app.log.error({ err: error }, 'one-off migrations did not run; they run at the next start'));
}

async function runPending(app: FastifyInstance, migrations: readonly OneOffMigration[]): Promise<void> {
  await withAdvisoryLock(
    app.db,
    LOCK,
    async (db) => {
      for (const migration of migrations) {
        if (await alreadyRan(db, migration.name)) continue;
        try {
          await runOne(app, db, migration);
        } catch (error) {
          app.log.error({ err: error, migration: migration.name }, `one-off migration ${migration.name} failed; it runs again at the next start`);
        }
      }
    },
    CATCH_UP_MS,
  );
}

async function alreadyRan(db: AppDatabase, name: string): Promise<boolean> {
  return Boolean(await db.selectFrom('operational.one_off_migrations').select('name').where('name', '=', name).executeTakeFirst());
}

async function runOne(app: FastifyInstance, db: AppDatabase, migration: OneOffMigration): Promise<void> {
  const head = await app.store.headPosition();
  // A runner that waits as long as a start may wait for the read models to catch up.
  const catchUp = createCommandRunner({ store: app.store, db: app.db as never, projections: app.projections, readYourWritesTimeoutMs: CATCH_UP_MS });
  if (!(await catchUp.awaitReadModels(migration.readModels, head))) {
    app.log.warn({ migration: migration.name }, `one-off migration ${migration.name} postponed: read models behind`);
    return;
  }
  const actor: CommandActor = { correlationId: `one-off:${migration.name}`, userId: null, occupationId: null, organizationId: null };
  const report = await migration.run(app, actor);
  await db
    .insertInto('operational.one_off_migrations')
    .values({ name: migration.name, report: JSON.stringify(report) })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const log = report.found > 0 ? app.log.warn.bind(app.log) : app.log.info.bind(app.log);
  log({ migration: migration.name, report }, `one-off migration ${migration.name}: ${report.found} found and repaired`);
}
