import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, isTransientDatabaseFailure } from '../src/failures';

/** The error a real connection attempt fails with. */
async function connectFailure(config: pg.ClientConfig): Promise<unknown> {
  const client = new pg.Client({ ...config, user: 'nobody', password: 'none', database: 'none', connectionTimeoutMillis: 2_000 });
  return client.connect().then(
    () => client.end().then(() => new Error('connected')),
    (error: unknown) => error,
  );
}

describe('database failures', () => {
  it("takes a Unix socket whose file is gone (its server restarting) for the database being away, and no other file's absence", async () => {
    const missingSocket = await connectFailure({ host: '/tmp/eelarve-no-such-socket-dir', port: 5999 });
    expect(missingSocket).toMatchObject({ code: 'ENOENT', syscall: 'connect' });
    expect(isDatabaseUnavailable(missingSocket)).toBe(true);
    expect(isTransientDatabaseFailure(missingSocket)).toBe(true);
    const missingFile = await readFile('/tmp/eelarve-no-such-file').catch((error: unknown) => error);
    expect(missingFile).toMatchObject({ code: 'ENOENT' });
    expect(isDatabaseUnavailable(missingFile)).toBe(false);
  });

  it('takes a refused TCP connection for the database being away', async () => {
    const refused = await connectFailure({ host: '127.0.0.1', port: 1 });
    expect(isDatabaseUnavailable(refused)).toBe(true);
  });
});
