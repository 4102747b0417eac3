import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

/** The repository's root, where `npm start` runs the worker from. */
const ROOT = path.resolve(import.meta.dirname, '../../..');

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything it wrote so far (stdout and stderr). */
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * `node --import tsx services/workers/src/main.ts` on a test's database, as `npm start` runs it,
 * with a short job expiry and queue maintenance so a killed worker's job is taken up again soon.
 * Resolves once the worker says it started.
 */
export async function startWorkerProcess(
  config: { databaseUrl: string; dataDir: string },
  { expireSeconds, startTimeoutMs = 60_000 }: { expireSeconds: number; startTimeoutMs?: number },
): Promise<WorkerProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: config.databaseUrl,
    DATA_DIR: config.dataDir,
    LOG_LEVEL: 'info',
    TASK_EXPIRE_SECONDS: String(expireSeconds),
    TASK_RETRY_DELAY_SECONDS: '1',
    QUEUE_MAINTENANCE_SECONDS: '1',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/workers/src/main.ts'], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const worker = { child, output: () => output, exited };
  const deadline = Date.now() + startTimeoutMs;
  while (!output.includes('worker started')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the worker process did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return worker;
}
