import { mkdtemp, chmod, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createPostgresEventStore, START } from '../src/index.ts';
import { createDatabase, startEmbeddedPostgres } from '@eelarve/postgres';

const dir = await mkdtemp(path.join(os.tmpdir(), 'r7-prof-'));
await chmod(dir, 0o755);
const server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data') });
try {
  const url = await createDatabase(server.adminUrl, 'prof');
  const store = createPostgresEventStore({ connectionString: url });
  await store.migrate();
  const ev = (i: number) => ({
    id: randomUUID(),
    type: 'RecordAmountSet',
    data: { recordId: randomUUID(), month: (i % 12) + 1, amount: '1234.56', classifiers: { account: '4000', project: 'P-17' } },
    metadata: {
      correlationId: randomUUID(),
      causationId: null,
      userId: randomUUID(),
      occupationId: null,
      organizationId: null,
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    },
  });
  for (let b = 0; b < 200; b++)
    await store.append(
      `s-${randomUUID()}`,
      Array.from({ length: 1000 }, (_, i) => ev(i)),
      { expectedRevision: 'no_stream' },
    );
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  for (let round = 0; round < 3; round++) {
    const t = performance.now();
    const c = process.cpuUsage();
    let n = 0;
    let pos = START;
    for (;;) {
      const p = await store.readAll({ fromPosition: pos, maxCount: 1000 });
      n += p.events.length;
      pos = p.nextPosition;
      if (p.isEnd) break;
    }
    const cu = process.cpuUsage(c);
    console.log(`readAll ${n} events ${((performance.now() - t) / 1000).toFixed(2)} s, client cpu ${((cu.user + cu.system) / n).toFixed(1)} µs/event`);
  }
  const { profile } = await session.post('Profiler.stop');
  (await import('node:fs')).writeFileSync('/tmp/r7/read.cpuprofile', JSON.stringify(profile));
  await store.close();
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
