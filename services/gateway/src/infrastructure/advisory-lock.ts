import { DomainError } from '@eelarve/shared';
import { type Kysely, sql } from 'kysely';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` while holding the PostgreSQL advisory lock named `name`, which excludes every
 * gateway process on the same database.
 *
 * - A session lock on one reserved connection, handed to `work` for its own queries. It is not
 *   a transaction lock: an open transaction that writes would hold the event store's readers
 *   back (`pg_snapshot_xmin`), and `work` may wait for projectors that read the log.
 * - A crashed holder's lock goes with its connection.
 * - Waiting polls `pg_try_advisory_lock`, so waiters hold no connection of the pool; after
 *   `waitMs` the caller gets CONCURRENT_MODIFICATION.
 */
export async function withAdvisoryLock<Database, T>(
  db: Kysely<Database>,
  name: string,
  work: (connection: Kysely<Database>) => Promise<T>,
  waitMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    const outcome = await db.connection().execute(async (connection) => {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtextextended(${name}, 0)) as locked`.execute(connection);
      if (!rows[0]?.locked) return { locked: false as const };
      try {
        return { locked: true as const, value: await work(connection) };
      } finally {
        await sql`select pg_advisory_unlock(hashtextextended(${name}, 0))`.execute(connection);
      }
    });
    if (outcome.locked) return outcome.value;
    if (Date.now() >= deadline) throw new DomainError('CONCURRENT_MODIFICATION', `lock ${name} is busy`);
    // Jittered backoff, so waiters neither hammer the database nor retry in step.
    await sleep(Math.min(5 * 2 ** attempt, 100) * (0.5 + Math.random()));
  }
}
