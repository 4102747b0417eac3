import { createPool, type Pool } from '@eelarve/postgres';

/**
 * A pool that tells `seen` the name of each named statement run on its connections, whether
 * through the pool or on a connection checked out of it (the store's appends go through one).
 */
export function poolNamingStatements(url: string, seen: (name: string) => void): Pool {
  const pool = createPool(url);
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: typeof query }).query = (...args) => {
      const name = (args[0] as { name?: unknown } | null)?.name;
      if (typeof name === 'string') seen(name);
      return query(...args);
    };
  });
  return pool;
}
