import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../src/database';
import { createTestDatabase, type TestDatabase } from '../src/testing/test-database';

describe('createPool settings', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('pool_settings');
  });

  afterAll(async () => {
    await database.drop();
  });

  it('gives every connection its settings as it starts, before any statement of the caller', async () => {
    const pool = createPool(database.url, { max: 2, settings: { plan_cache_mode: 'force_generic_plan', statement_timeout: '15s' } });
    try {
      // Two connections at once: each has the settings, not only the first.
      const answers = await Promise.all(
        [0, 1].map(async () => {
          const client = await pool.connect();
          try {
            const { rows } = await client.query<{ plan: string; timeout: string }>(
              "select current_setting('plan_cache_mode') as plan, current_setting('statement_timeout') as timeout, pg_sleep(0.05)",
            );
            return rows[0];
          } finally {
            client.release();
          }
        }),
      );
      expect(answers).toEqual([
        expect.objectContaining({ plan: 'force_generic_plan', timeout: '15s' }),
        expect.objectContaining({ plan: 'force_generic_plan', timeout: '15s' }),
      ]);
    } finally {
      await pool.end();
    }
    const plain = createPool(database.url);
    try {
      expect((await plain.query("select current_setting('plan_cache_mode') as plan")).rows).toEqual([{ plan: 'auto' }]);
    } finally {
      await plain.end();
    }
  });

  it('refuses a setting that is not a plain word, which could smuggle in another option', () => {
    expect(() => createPool(database.url, { settings: { plan_cache_mode: 'auto -c fsync=off' } })).toThrow(RangeError);
    expect(() => createPool(database.url, { settings: { 'x y': 'on' } })).toThrow(RangeError);
  });
});
