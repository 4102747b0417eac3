import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createDatabase, dropDatabase } from '@eelarve/postgres';
import { openTaskQueue } from '@eelarve/gateway/features/tasks/queue';
import { startRuntime } from '@eelarve/gateway/infrastructure/runtime';
import type { TaskContext } from '@eelarve/gateway/features/tasks/context';
import type { TestProject } from 'vitest/node';
import { testConfig } from './server';

/**
 * A gateway start on an empty database migrates the event store, the operational tables, every
 * projector's generation and pg-boss's schema: seconds per test server, for each of about a
 * hundred servers a run starts. This runs once per run, after the PostgreSQL global setup, on a
 * database (one on each worker's PostgreSQL) that test servers then clone (CREATE DATABASE ...
 * TEMPLATE); their own start still runs every migration step, finding it done. No data is put in: the bootstrap administrator,
 * one-off migrations and secrets stay each server's own.
 */
export default async function setup(project: TestProject) {
  const adminUrls = project.getProvidedContext().adminDatabaseUrls;
  const name = `app_template_${randomBytes(6).toString('hex')}`;
  await Promise.all(adminUrls.map((adminUrl) => migrateTemplate(adminUrl, name)));
  project.provide('appTemplateDatabase', name);
  return async () => {
    await Promise.all(adminUrls.map((adminUrl) => dropDatabase(adminUrl, name)));
  };
}

/** The template on one worker's PostgreSQL: what a gateway start migrates, no data. */
async function migrateTemplate(adminUrl: string, name: string): Promise<void> {
  const config = testConfig(await createDatabase(adminUrl, name));
  const errors: unknown[] = [];
  const runtime = await startRuntime(config, (error) => errors.push(error));
  const queue = await openTaskQueue(config.databaseUrl, { worker: false, log: silentLog(errors) });
  await queue.stop({ graceful: false, wait: true });
  await runtime.close();
  await rm(config.dataDir, { recursive: true, force: true });
  if (errors.length > 0) throw errors[0];
}

/** The queue's background failures, kept to fail the set-up; its other news is not needed here. */
function silentLog(errors: unknown[]): TaskContext['log'] {
  const ignore = () => {};
  return { debug: ignore, info: ignore, warn: ignore, error: (...args: unknown[]) => errors.push(args[0]) } as TaskContext['log'];
}
