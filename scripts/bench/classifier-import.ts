/**
 * Classifier item import end to end: `pnpm bench:classifier-import`. Generates a real .xlsx of
 * 20,000 items (each grouped by an item of a grouping classifier), then through the HTTP API
 * (Fastify inject, the same routes the web calls) validates the file and imports the rows, and
 * prints the time of each step. Target: validate + import under 10 s. The import answers only
 * after the read models show the items (read-your-writes), so that time is included.
 *
 * Starts an embedded PostgreSQL (durable defaults) in a temporary directory unless DATABASE_URL
 * names a server; either way it works in a fresh database of its own.
 */
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '@eelarve/gateway/app';
import { itemsWorkbook } from '@eelarve/gateway/features/classifiers/files';
import { DEMO_ADMIN } from '@eelarve/gateway/config';
import { createDatabase, dropDatabase, startEmbeddedPostgres } from '@eelarve/postgres';
import { testConfig } from '@eelarve/testing/server';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 20_000);
const GROUPING_ITEMS = 50;
const TARGET_SECONDS = 10;

async function withServer<T>(run: (adminUrl: string) => Promise<T>): Promise<T> {
  if (process.env.DATABASE_URL) return run(process.env.DATABASE_URL);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'eelarve-bench-pg-'));
  await chmod(dir, 0o755);
  console.log(`starting an embedded PostgreSQL in ${dir} (durable defaults)`);
  const server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data') });
  try {
    return await run(server.adminUrl);
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

function expectStatus(response: { statusCode: number; body: string }, status: number, what: string): void {
  if (response.statusCode !== status) throw new Error(`${what}: expected ${status}, got ${response.statusCode} ${response.body.slice(0, 2000)}`);
}

function multipart(filename: string, content: Buffer) {
  const boundary = `----eelarve${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function main(): Promise<void> {
  await withServer(async (adminUrl) => {
    const database = `bench_classifiers_${randomUUID().slice(0, 8)}`;
    const databaseUrl = await createDatabase(adminUrl, database);
    const app = await buildApp(testConfig(databaseUrl, { logLevel: 'warn', readYourWritesTimeoutMs: 30_000 }));
    try {
      const login = await app.inject({ method: 'POST', url: '/initial/auth/login', payload: { username: DEMO_ADMIN.email, password: DEMO_ADMIN.password } });
      expectStatus(login, 200, 'login');
      const session = login.cookies.find((cookie) => cookie.name === 'eelarve_session')!;
      const headers = { cookie: `${session.name}=${session.value}` };
      const call = (options: { method: 'GET' | 'POST'; url: string; payload?: object | Buffer; headers?: Record<string, string> }) =>
        app.inject({ method: options.method, url: options.url, payload: options.payload as never, headers: { ...headers, ...options.headers } });

      const organization = await call({
        method: 'POST',
        url: '/api/organization',
        payload: {
          name: 'Bench Vallavalitsus',
          localeCode: 'et',
          localeSettings: { language: 'et', dateFormat: 'dd.MM.yyyy', decimalSeparator: 'comma', decimalPlaces: '2', presetResourceStatusIds: 'default' },
          enableResourceStatuses: false,
          allowResourceStatusEditing: false,
          allowedAuthenticationTypes: ['LOGIN', 'PASS'],
          apiUsageAllowed: false,
          sessionLength: 30,
          sessionLengthMultiplier: 86_400_000,
        },
      });
      expectStatus(organization, 201, 'organization');
      const organizationId = organization.json().id as string;
      const document = await call({
        method: 'POST',
        url: `/api/organization/${organizationId}/document`,
        payload: { name: 'Eelarve 2027', period: { year: 2027, month: 1, duration: 1 } },
      });
      expectStatus(document, 201, 'document');
      const documentId = document.json().id as string;

      const classifier = (fieldName: string, groupingId: string | null = null) =>
        call({
          method: 'POST',
          url: `/api/document/${documentId}/classifier`,
          payload: {
            name: fieldName,
            itemName: fieldName,
            fieldName,
            groupingId,
            codeSettings: { typeName: 'Code', minLength: 1, maxLength: 20, hierarchical: false },
          },
        });
      const target = await classifier('eelarve_konto');
      expectStatus(target, 201, 'classifier');
      const classifierId = target.json().id as string;
      const grouping = await classifier('konto_grupp', classifierId);
      expectStatus(grouping, 201, 'grouping classifier');
      const groupingId = grouping.json().id as string;
      const groups = await call({
        method: 'POST',
        url: `/api/classifier/${groupingId}/items`,
        payload: { items: Array.from({ length: GROUPING_ITEMS }, (_, index) => ({ code: `G${index}`, name: `Grupp ${index}`, unselectable: false })) },
      });
      expectStatus(groups, 200, 'grouping items');

      let start = process.hrtime.bigint();
      const rows = Array.from({ length: ITEMS }, (_, index) => [
        String(100000 + index),
        `Konto ${index} – kulud ja tulud`,
        index % 7 === 0 ? `Kirjeldus ${index}` : '',
        index % 11 === 0 ? 'true' : 'false',
        `g${index % GROUPING_ITEMS}`,
      ]);
      const file = await itemsWorkbook(['code', 'name', 'description', 'unselectable', 'konto_grupp'], rows);
      console.log(`generated ${ITEMS} rows as .xlsx (${(file.length / 1024).toFixed(0)} KiB) in ${seconds(start).toFixed(2)} s (not counted)`);

      const total = process.hrtime.bigint();
      start = process.hrtime.bigint();
      const validated = await call({ method: 'POST', url: `/api/classifier/${classifierId}/items/validate`, ...multipart('items.xlsx', file) });
      expectStatus(validated, 200, 'validate');
      const validation = validated.json() as { valid: boolean; rows: { values: Record<string, unknown>; errors: unknown[] }[] };
      if (!validation.valid) throw new Error(`validation found errors: ${JSON.stringify(validation.rows.find((row) => row.errors.length > 0))}`);
      const validateSeconds = seconds(start);
      console.log(`validate (upload, parse, check ${validation.rows.length} rows): ${validateSeconds.toFixed(2)} s`);

      start = process.hrtime.bigint();
      const imported = await call({
        method: 'POST',
        url: `/api/classifier/${classifierId}/items`,
        payload: { documentId, classifierId, items: validation.rows.map((row) => row.values) },
      });
      expectStatus(imported, 200, 'import');
      const importSeconds = seconds(start);
      console.log(`import (check again, one event, projected with one statement, read-your-writes): ${importSeconds.toFixed(2)} s`);

      const listed = await call({ method: 'GET', url: `/api/classifier/${classifierId}/items` });
      expectStatus(listed, 200, 'list');
      const count = (listed.json() as unknown[]).length;
      if (count !== ITEMS) throw new Error(`expected ${ITEMS} items, the read model has ${count}`);
      const totalSeconds = seconds(total);
      const verdict = totalSeconds < TARGET_SECONDS ? 'OK' : 'SLOWER THAN TARGET';
      console.log(`validate + import of ${ITEMS} items: ${totalSeconds.toFixed(2)} s (target < ${TARGET_SECONDS} s) ${verdict}; read back ${count} items`);
      if (totalSeconds >= TARGET_SECONDS) process.exitCode = 1;
    } finally {
      await app.close();
      await dropDatabase(adminUrl, database);
    }
  });
}

await main();
