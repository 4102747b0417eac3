import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../embedded';

import './test-database';

/**
 * Starts one PostgreSQL for the whole run (or uses DATABASE_URL's server); each test file then
 * creates its own database on it, so files run in parallel without seeing each other's data.
 */
export default async function setup(project: TestProject) {
  const external = process.env.DATABASE_URL;
  if (external) {
    project.provide('adminDatabaseUrl', external);
    return;
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eelarve-test-pg-'));
  await chmod(dataDir, 0o755); // the server runs as the postgres user when we are root
  const server = await startEmbeddedPostgres({
    dataDir: path.join(dataDir, 'data'),
    // A throwaway cluster: durability is not what the tests are about.
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
  });
  project.provide('adminDatabaseUrl', server.adminUrl);
  return async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
