import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { type EmbeddedPostgresHandle, startEmbeddedPostgres } from '../embedded';
import { sharedTemplatePattern } from './test-database';

/**
 * Starts one PostgreSQL per vitest worker (or uses DATABASE_URL's server); each test file then
 * creates its own database on its worker's server. Files running at once on one server would
 * still meet there: a transaction one of them holds open hides every later commit of the whole
 * server from $all (its snapshot's horizon), and tests that count lock waiters see the others'.
 */
export default async function setup(project: TestProject) {
  const runId = randomBytes(4).toString('hex');
  project.provide('testRunId', runId);
  const external = process.env.DATABASE_URL;
  if (external) {
    project.provide('adminDatabaseUrls', [external]);
    return () => dropSharedTemplates(external, runId);
  }
  const workers = Math.max(1, Number(project.vitest.config.maxWorkers) || 1);
  const servers = await Promise.all(Array.from({ length: workers }, () => startThrowawayServer()));
  project.provide(
    'adminDatabaseUrls',
    servers.map(({ server }) => server.adminUrl),
  );
  return async () => {
    await Promise.all(
      servers.map(async ({ server, dataDir }) => {
        await server.stop();
        await rm(dataDir, { recursive: true, force: true });
      }),
    );
  };
}

async function startThrowawayServer(): Promise<{ server: EmbeddedPostgresHandle; dataDir: string }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eelarve-test-pg-'));
  await chmod(dataDir, 0o755); // the server runs as the postgres user when we are root
  const server = await startEmbeddedPostgres({
    dataDir: path.join(dataDir, 'data'),
    // A throwaway cluster: durability is not what the tests are about.
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
  });
  return { server, dataDir };
}

/** The run's shared templates (test-database.ts), on a server that outlives the run. */
async function dropSharedTemplates(adminUrl: string, runId: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('select datname from pg_database where datname like $1', [sharedTemplatePattern(runId)]);
    for (const { datname } of rows) await client.query(`drop database if exists "${datname.replaceAll('"', '""')}" with (force)`);
  } finally {
    await client.end();
  }
}
