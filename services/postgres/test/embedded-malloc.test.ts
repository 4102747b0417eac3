import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../src/testing/test-database';

/** Minor page faults of a process so far (/proc/<pid>/stat's 10th field). */
function minorFaults(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[7]);
}

/** Reads another user's /proc entry: root or the server's own user (the embedded server on Linux). */
const canWatchServer = process.platform === 'linux' && !process.env.DATABASE_URL && (process.getuid?.() === 0 || process.env.USER === 'postgres');

describe.runIf(canWatchServer)('the embedded server keeps the memory of big sorts', () => {
  let database: TestDatabase;
  let client: pg.Client;
  let backendPid: number;

  beforeAll(async () => {
    database = await createTestDatabase('embedded_malloc');
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query("set work_mem = '32MB'");
    backendPid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  });

  afterAll(async () => {
    await client.end();
    await database.drop();
  });

  it('sorts 8 MB again without faulting its pages in again (glibc hands them back by default)', async () => {
    // 20,000 rows of 400 bytes sorted in memory: some 8 MB of the backend's memory per query.
    const sortBig = () => client.query('select count(*) from (select repeat(md5(i::text), 12) as t from generate_series(1, 20000) i order by 1 offset 0) s');
    await sortBig();
    const before = minorFaults(backendPid);
    await sortBig();
    const again = minorFaults(backendPid) - before;
    // 8 MB are ~2,000 pages of 4 KB: with glibc's defaults each run faulted nearly all of them in.
    expect(again).toBeLessThan(300);
  });
});
