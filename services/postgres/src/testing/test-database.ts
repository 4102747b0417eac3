import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createDatabase, dropDatabase } from '../database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by the global setup: the maintenance database of the run's PostgreSQL. */
    adminDatabaseUrl: string;
  }
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, empty database of its own for one test file (or one test). */
export async function createTestDatabase(prefix = 't'): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const url = await createDatabase(adminUrl, name);
  return { url, name, drop: () => dropDatabase(adminUrl, name) };
}

export function adminDatabaseUrl(): string {
  return inject('adminDatabaseUrl');
}
