import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { configFromEnvironment, parseEnvironment } from '@eelarve/gateway/config';
import type { TaskPolicy } from '@eelarve/gateway/features/tasks/definition';
import { createWorkerContext } from './context';
import { startWorker } from './worker';

/**
 * The worker process: runs background tasks (document and budget copies) from the job queue in
 * the product's database. Configured like the gateway (DATABASE_URL, else the embedded
 * database the gateway started, whose address it left in DATA_DIR/postgres.json), plus:
 *   TASK_EXPIRE_SECONDS, TASK_RETRY_LIMIT, TASK_RETRY_DELAY_SECONDS  override every task type's
 *                                    queue policy (features/tasks/definition.ts)
 *   QUEUE_MAINTENANCE_SECONDS        how often expired jobs are looked for (default 30)
 * SIGINT/SIGTERM stop it: running tasks get 30 s to finish, the rest are retried by the next worker.
 */
function positiveNumber(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0) throw new Error(`invalid configuration: ${name}: ${value}`);
  return number;
}

function policyFromEnvironment(): Partial<TaskPolicy> {
  const entries = {
    expireInSeconds: positiveNumber('TASK_EXPIRE_SECONDS'),
    retryLimit: positiveNumber('TASK_RETRY_LIMIT'),
    retryDelaySeconds: positiveNumber('TASK_RETRY_DELAY_SECONDS'),
  };
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
}

async function databaseUrlOf(given: string | undefined, dataDir: string): Promise<string> {
  if (given) return given;
  const file = path.join(dataDir, 'postgres.json');
  const { url } = JSON.parse(await readFile(file, 'utf8')) as { url?: string };
  if (!url) throw new Error(`no DATABASE_URL and no database address in ${file}: start the gateway first`);
  return url;
}

async function main(): Promise<void> {
  const env = parseEnvironment(process.env);
  const config = configFromEnvironment(env, await databaseUrlOf(env.DATABASE_URL, path.resolve(env.DATA_DIR)));
  const { context, close } = createWorkerContext(config);
  const worker = await startWorker({ context, policy: policyFromEnvironment(), maintenanceIntervalSeconds: positiveNumber('QUEUE_MAINTENANCE_SECONDS') });
  context.log.info({ pid: process.pid }, 'worker started');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    context.log.info({ signal }, 'worker stopping');
    try {
      await worker.stop();
      await close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  process.stderr.write(`worker failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
