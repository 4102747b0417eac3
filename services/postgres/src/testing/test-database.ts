import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import pg from 'pg';
import { createDatabase, dropDatabase, withDatabase } from '../database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by the global setup: the maintenance database of each worker's PostgreSQL. */
    adminDatabaseUrls: string[];
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
