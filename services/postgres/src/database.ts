import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';

// numeric and int8 stay strings: amounts are exact decimals and positions exceed 2^53.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);

export type Pool = pg.Pool;

export interface PoolOptions {
  max?: number;
  /** Connections kept open however long they idle (openConnections opens them at the start); default none. */
  min?: number;
  applicationName?: string;
  /** Server settings for every connection, sent as it starts (no statement of their own). */
  settings?: Record<string, string>;
}

/**
 * How long an idle connection stays open. A new one costs a SCRAM handshake and a fresh backend
 * whose first statements run on cold caches; closed after pg's default 10 s, the gateway's pool
 * shed the connections a burst of edits had opened and opened them again in the next burst, and
 * those edits were the slowest of 16 editors'.
 */
const IDLE_CONNECTION_MS = 5 * 60_000;

export function createPool(connectionString: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    min: options.min ?? 0,
    application_name: options.applicationName ?? 'eelarve',
    options: startupOptions(options.settings),
    // One long open transaction holds back every $all reader, so none may idle inside one.
    idle_in_transaction_session_timeout: 30_000,
    // Waiting for a connection (the server away, or every connection busy) ends in an error the
    // gateway answers 503 to, rather than a request that hangs.
    connectionTimeoutMillis: 30_000,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
  });
  // A connection dropped by a database restart must not crash the process: the query in
  // flight fails and the pool opens a new connection next time.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** `-c name=value` for each setting (values are the server's words and numbers: no spaces). */
function startupOptions(settings: Record<string, string> | undefined): string | undefined {
  const entries = Object.entries(settings ?? {});
  for (const [name, value] of entries)
    if (!/^[\w.]+$/.test(name) || !/^[\w.-]+$/.test(value)) throw new RangeError(`setting ${name}=${value}: names and values are words`);
  return entries.length > 0 ? entries.map(([name, value]) => `-c ${name}=${value}`).join(' ') : undefined;
}

/**
 * Opens `count` connections of the pool now, so a service's first burst of requests does not wait
 * for them one handshake at a time (kept open by the pool's `min`).
 */
export async function openConnections(pool: pg.Pool, count: number): Promise<void> {
  const clients = await Promise.all(Array.from({ length: count }, () => pool.connect()));
  for (const client of clients) client.release();
}

export function createKysely<DB>(pool: pg.Pool): Kysely<DB> {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}

/** Replaces the database name in a connection string. */
export function withDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function createDatabase(adminUrl: string, database: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`create database "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
  return withDatabase(adminUrl, database);
}

export async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists "${database.replaceAll('"', '""')}" with (force)`);
  } finally {
    await client.end();
  }
}
