import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '@eelarve/postgres/testing/test-database';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { type AppConfig, DEMO_ADMIN, defaultWebDist } from './config';

export interface TestServer {
  app: FastifyInstance;
  /** Base address when listening; empty for inject-only servers. */
  url: string;
  admin: { email: string; password: string };
  close(): Promise<void>;
}

export function testConfig(databaseUrl: string, overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    environment: 'test',
    databaseUrl,
    dataDir: path.join(os.tmpdir(), `eelarve-test-${randomBytes(4).toString('hex')}`),
    publicUrl: 'http://localhost',
    bootstrapAdmin: { ...DEMO_ADMIN },
    logLevel: (process.env.TEST_LOG_LEVEL as AppConfig['logLevel']) ?? 'silent',
    runProjections: true,
    readYourWritesTimeoutMs: 5_000,
    mail: { from: 'Eelarve <no-reply@eelarve.local>' },
    ...overrides,
  };
}

/** The whole product on a fresh database of its own; `listen` serves it on a free port. */
export async function startTestServer(options: { listen?: boolean; webDist?: string; config?: Partial<AppConfig> } = {}): Promise<TestServer> {
  const database = await createTestDatabase('app');
  const listen = options.listen ?? true;
  const app = await buildApp(testConfig(database.url, { webDist: options.webDist ?? (listen ? defaultWebDist() : undefined), ...options.config }));
  let url = '';
  if (listen) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    app.config.publicUrl = url;
  }
  return {
    app,
    url,
    admin: { ...DEMO_ADMIN },
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
