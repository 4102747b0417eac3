import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import pg from 'pg';
import { createDatabase, dropDatabase, withDatabase } from '../database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by the global setup: the maintenance database of each worker's PostgreSQL. */
    adminDatabaseUrls: string[];
    /** Set by the global setup: names this run's shared templates (`sharedTemplate`), so its teardown can drop them. */
    testRunId: string;
  }
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A fresh database of its own for one test file (or one test): empty, or a copy of `template`
 * (a database nobody is connected to, cloned by CREATE DATABASE ... TEMPLATE).
 */
export async function createTestDatabase(prefix = 't', options: { template?: string } = {}): Promise<TestDatabase> {
  const adminUrl = adminDatabaseUrl();
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const url = options.template ? await cloneDatabase(adminUrl, options.template, name) : await createDatabase(adminUrl, name);
  return { url, name, drop: () => dropDatabase(adminUrl, name) };
}

/** The maintenance database of this worker's PostgreSQL (VITEST_POOL_ID: 1 to maxWorkers). */
export function adminDatabaseUrl(): string {
  const urls = inject('adminDatabaseUrls');
  return urls[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % urls.length]!;
}

async function cloneDatabase(adminUrl: string, template: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
    await client.query(`create database ${quoted(name)} template ${quoted(template)}`);
  } finally {
    await client.end();
  }
  return withDatabase(adminUrl, name);
}

/** The name pattern (for LIKE) of a run's shared templates: the global teardown drops them. */
export const sharedTemplatePattern = (runId: string) => `tpl\\_%\\_${runId}`;

const sharedTemplates = new Map<string, Promise<string>>();

/**
 * A database prepared once per run on this worker's PostgreSQL, to give `createTestDatabase` as
 * its template: cloning is much cheaper than preparing (migrating) a database for every test. The
 * first file of the run that asks creates and prepares it under an advisory lock; `prepare` must
 * close its connections (a template nobody is connected to can be cloned).
 */
export function sharedTemplate(purpose: string, prepare: (url: string) => Promise<void>): Promise<string> {
  const name = `tpl_${purpose}_${inject('testRunId')}`;
  let made = sharedTemplates.get(name);
  if (!made) {
    made = makeSharedTemplate(adminDatabaseUrl(), name, prepare);
    sharedTemplates.set(name, made);
    // A failure is not kept: the next test tries again (and fails with its own error).
    made.catch(() => sharedTemplates.delete(name));
  }
  return made;
}

async function makeSharedTemplate(adminUrl: string, name: string, prepare: (url: string) => Promise<void>): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    // Files on other workers' servers ask too, but each server's template is made once.
    await client.query('select pg_advisory_lock(hashtext($1))', [name]);
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      // Prepared under another name and renamed once ready: a process killed while preparing
      // leaves no half-made template under `name` for the run's later files to clone.
      const building = `${name}_new`;
      await dropDatabase(adminUrl, building);
      const url = await createDatabase(adminUrl, building);
      try {
        await prepare(url);
      } catch (error) {
        await dropDatabase(adminUrl, building);
        throw error;
      }
      await client.query(`alter database "${building}" rename to "${name}"`);
    }
  } finally {
    await client.end(); // ends the session, and with it the advisory lock
  }
  return name;
}
