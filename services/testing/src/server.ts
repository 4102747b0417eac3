import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { type LocalEidProvider, startLocalEidProvider } from '@eelarve/eid-provider';
import { createTestDatabase } from '@eelarve/postgres/testing/test-database';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '@eelarve/gateway/app';
import { type AppConfig, DEMO_ADMIN, defaultWebDist } from '@eelarve/gateway/config';
import { startWorker, type Worker } from '@eelarve/workers/worker';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by template-database.ts (a global setup): a database with the schema a gateway start creates, to clone. */
    appTemplateDatabase: string;
  }
}

export interface TestServer {
  app: FastifyInstance;
  /** Base address when listening; empty for inject-only servers. */
  url: string;
  admin: { email: string; password: string };
  /** The local electronic-ID provider when started with `eid`; config.oidc points at it. */
  eid?: LocalEidProvider;
  /** The task worker running in this process (copies), unless started with `worker: false`. */
  worker?: Worker;
  close(): Promise<void>;
}

export function testConfig(databaseUrl: string, overrides: Partial<AppConfig> = {}): AppConfig {
  const dataDir = path.join(os.tmpdir(), `eelarve-test-${randomBytes(4).toString('hex')}`);
  return {
    environment: 'test',
    databaseUrl,
    dataDir,
    publicUrl: 'http://localhost',
    bootstrapAdmin: { ...DEMO_ADMIN },
    logLevel: (process.env.TEST_LOG_LEVEL as AppConfig['logLevel']) ?? 'silent',
    runProjections: true,
    readYourWritesTimeoutMs: 5_000,
    mail: { from: 'Eelarve <no-reply@eelarve.local>' },
    sessionIdleTimeoutMs: 12 * 60 * 60_000,
    secrets: { keyFile: path.join(dataDir, 'secrets.key') },
    ...overrides,
  };
}

/** The whole product on a fresh database of its own; `listen` serves it on a free port. */
export async function startTestServer(
  options: {
    listen?: boolean;
    webDist?: string;
    config?: Partial<AppConfig>;
    /** Starts the local electronic-ID provider (OpenID Connect) on a free port and points config.oidc at it. */
    eid?: boolean | { autoApprove?: string };
    /** Runs a task worker in this process, on the app's database and context (default); false leaves tasks to a worker the test starts. */
    worker?: boolean;
  } = {},
): Promise<TestServer> {
  // A clone of the migrated schema (template-database.ts) when the run's global setup made one.
  const database = await createTestDatabase('app', { template: inject('appTemplateDatabase') });
  const listen = options.listen ?? true;
  const app = await buildApp(testConfig(database.url, { webDist: options.webDist ?? (listen ? defaultWebDist() : undefined), ...options.config }));
  let url = '';
  if (listen) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    app.config.publicUrl = url;
  }
  const eid = options.eid ? await startTestEidProvider(app, options.eid === true ? {} : options.eid) : undefined;
  // Retries a second apart, so a test that fails an attempt does not wait for production's backoff.
  const worker = (options.worker ?? true) ? await startWorker({ context: app, policy: { retryDelaySeconds: 1 } }) : undefined;
  const server: TestServer = {
    app,
    url,
    admin: { ...DEMO_ADMIN },
    eid,
    worker,
    async close() {
      await eid?.close();
      // The worker running now, which a test may have put in place of the first: one left
      // running met the dropped database mid-job (pg-boss's fail() rejected unhandled).
      await server.worker?.stop({ timeoutMs: 5_000 });
      await app.close();
      await database.drop();
    },
  };
  return server;
}

const TEST_OIDC_CLIENT = { clientId: 'eelarve-test', clientSecret: 'eelarve-test-secret' };

/** The provider registers the gateway's callback, so it starts once the gateway's address is known. */
async function startTestEidProvider(app: FastifyInstance, options: { autoApprove?: string }): Promise<LocalEidProvider> {
  const provider = await startLocalEidProvider({
    ...TEST_OIDC_CLIENT,
    redirectUris: [`${app.config.publicUrl.replace(/\/+$/, '')}/public/auth/pass-callback`],
    autoApprove: options.autoApprove,
  });
  app.config.oidc = { issuer: provider.issuer, ...TEST_OIDC_CLIENT };
  return provider;
}
