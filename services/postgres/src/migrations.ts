import { type Kysely, type Migration, Migrator } from 'kysely';

/**
 * Each part of the system (event store, operational tables, each projector) owns its migrations
 * and its own migration table, so parts can be added without touching a central list.
 */
export async function migrate(db: Kysely<unknown>, owner: string, migrations: Record<string, Migration>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: `migrations_${owner}`,
    migrationLockTableName: `migrations_${owner}_lock`,
    // Features add their migrations independently; names carry a date, order among them is free.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`migrations of ${owner} failed at ${failed?.migrationName ?? '?'}: ${String(error)}`);
  }
}
