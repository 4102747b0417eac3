import { DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

/** How long a retry waits for the first attempt of the same import to finish. */
const WAIT_FOR_FIRST_MS = 30_000;
const POLL_MS = 100;
/** A claim without a result this old lost its process (the import itself takes seconds). */
const ABANDONED_AFTER_SECONDS = 300;

/**
 * Runs an import once per client import id within `scope` (e.g. the classifier): the first
 * attempt claims the id, runs, and stores its result; a retry with the same id (the answer got
 * lost, the user pressed again) gets that result with `alreadyDone: true` and appends nothing. A
 * retry arriving while the first attempt still runs waits for it. A failed attempt releases the
 * id, so a retry runs again. Without an import id the import just runs.
 */
export async function onceByImportId<R extends object>(
  app: FastifyInstance,
  scope: string,
  importId: string | undefined,
  run: () => Promise<R>,
): Promise<R & { alreadyDone?: boolean }> {
  if (!importId) return run();
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    if (await claim(app, scope, importId)) return runClaimed(app, scope, importId, run);
    const stored = await storedResult<R>(app, scope, importId);
    if (stored) return { ...stored, alreadyDone: true };
    if (Date.now() > deadline) throw new DomainError('CONCURRENT_MODIFICATION', 'an import with this id is still running');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Takes the id (or a claim whose process died); false when another attempt holds it. */
async function claim(app: FastifyInstance, scope: string, importId: string): Promise<boolean> {
  await app.db
    .deleteFrom('operational.import_results')
    .where('scope', '=', scope)
    .where('import_id', '=', importId)
    .where('result', 'is', null)
    .where('created_at', '<', sql<Date>`now() - make_interval(secs => ${ABANDONED_AFTER_SECONDS})`)
    .execute();
  const inserted = await app.db
    .insertInto('operational.import_results')
    .values({ scope, import_id: importId, result: null, created_at: sql<Date>`now()` })
    .onConflict((conflict) => conflict.columns(['scope', 'import_id']).doNothing())
    .returning('import_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

async function runClaimed<R extends object>(app: FastifyInstance, scope: string, importId: string, run: () => Promise<R>): Promise<R> {
  let result: R;
  try {
    result = await run();
  } catch (error) {
    await app.db.deleteFrom('operational.import_results').where('scope', '=', scope).where('import_id', '=', importId).execute();
    throw error;
  }
  await app.db
    .updateTable('operational.import_results')
    .set({ result: JSON.stringify(result) })
    .where('scope', '=', scope)
    .where('import_id', '=', importId)
    .execute();
  return result;
}

async function storedResult<R>(app: FastifyInstance, scope: string, importId: string): Promise<R | null> {
  const row = await app.db
    .selectFrom('operational.import_results')
    .select('result')
    .where('scope', '=', scope)
    .where('import_id', '=', importId)
    .executeTakeFirst();
  return (row?.result as R | null | undefined) ?? null;
}
