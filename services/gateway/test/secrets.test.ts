import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { documentDecider } from '@eelarve/domain';
import { createTestDatabase, type TestDatabase } from '@eelarve/postgres/testing/test-database';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import type { AppConfig } from '../src/config';
import { executeCommand } from '../src/infrastructure/commands';
import { testConfig } from '@eelarve/testing/server';
import { awayFromStepEdge, Browser, codeFor, createOrganization, createUser } from './auth-fixtures';
import { type Client, login } from './helpers';

/**
 * TOTP secrets and budget API keys are sealed under a key from outside the database (here the
 * key file under DATA_DIR), and a start moves data of an older installation under it.
 */
let database: TestDatabase;
let config: AppConfig;
let app: FastifyInstance;

const actor = { correlationId: 'secrets-test', userId: null, occupationId: null, organizationId: null };

/** A start of the product on the same database and DATA_DIR, as after a restart. */
async function restart(): Promise<Client> {
  await app.close();
  app = await buildApp(config);
  return login(app, config.bootstrapAdmin!.email, config.bootstrapAdmin!.password);
}

async function monitoringBudget(admin: Client, organizationId: string): Promise<string> {
  const documentId = randomUUID();
  const settings = {
    name: `Doc ${documentId.slice(0, 6)}`,
    description: '',
    period: { year: 2026, month: 1, duration: 1 },
    recordAmountKey: 'summa',
    allowCommentingWithReadPermissions: false,
  };
  await executeCommand(app.store, documentDecider, { type: 'CreateDocument', documentId, organizationId, now: new Date(), ...settings }, actor);
  const update = {
    type: 'UpdateDocument',
    documentId,
    masterClassifierId: randomUUID(),
    recordsCount: 0,
    platformAdmin: true,
    resourceStatusId: null,
    ...settings,
  } as const;
  const outcome = await executeCommand(app.store, documentDecider, update, actor);
  await app.projections.waitForPosition(['documents'], outcome.position!, 5_000);
  const response = await admin.request({
    method: 'POST',
    url: `/api/document/${documentId}/budget`,
    payload: { type: 'MONITORING', name: 'Feed', description: '' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

/** The format of the older installation: AES-256-GCM under a key stored in the database, no additional data. */
function legacySeal(key: Buffer, plaintext: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

beforeAll(async () => {
  database = await createTestDatabase('secrets');
  config = testConfig(database.url);
  app = await buildApp(config);
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
});

describe('secrets', () => {
  it('keeps the key in a file of its own under DATA_DIR (mode 0600), not in the database', async () => {
    const file = await stat(config.secrets.keyFile!);
    expect(file.mode & 0o777).toBe(0o600);
    const keys = await app.db.selectFrom('operational.electronic_id_keys').select('name').execute();
    expect(keys.map((row) => row.name)).not.toContain('budget-api-key-aes-gcm');
    expect(keys.map((row) => row.name)).not.toContain('flow-cookie-aes-gcm');
  });

  it('stores TOTP secrets encrypted, and signs in with them', async () => {
    const admin = await login(app, config.bootstrapAdmin!.email, config.bootstrapAdmin!.password);
    const organization = await createOrganization(admin, { allowedAuthenticationTypes: ['LOGIN_WITH_MFA'] });
    const user = await createUser(app, [organization]);
    const browser = new Browser(app);
    expect((await browser.login(user.email, user.password)).json().code).toBe('MFA_NOT_SET_UP');
    await awayFromStepEdge();
    const { code: secret } = (await browser.request({ method: 'GET', url: '/initial/auth/mfa-secret' })).json();
    const pending = await app.db.selectFrom('operational.mfa_secrets').select('pending_secret').where('user_id', '=', user.userId).executeTakeFirstOrThrow();
    expect(pending.pending_secret).toMatch(/^v1:/);
    expect(pending.pending_secret).not.toContain(secret);
    expect((await browser.request({ method: 'POST', url: '/initial/auth/confirm-mfa-code', payload: { code: codeFor(secret) } })).statusCode).toBe(200);
    const row = await app.db
      .selectFrom('operational.mfa_secrets')
      .select(['secret', 'pending_secret'])
      .where('user_id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/^v1:/);
    expect(row.secret).not.toContain(secret);
    const again = new Browser(app);
    expect((await again.login(user.email, user.password)).json().code).toBe('ENTER_MFA_CODE');
    expect((await again.request({ method: 'POST', url: '/initial/auth/upgrade-session-to-mfa', payload: { code: codeFor(secret, 1) } })).statusCode).toBe(200);
  });

  it('moves plaintext TOTP secrets and API keys sealed under a database key under the secrets key at start, idempotently', async () => {
    let admin = await login(app, config.bootstrapAdmin!.email, config.bootstrapAdmin!.password);
    const organization = await createOrganization(admin, { allowedAuthenticationTypes: ['LOGIN_WITH_MFA'] });
    const budgetId = await monitoringBudget(admin, organization);
    const apiKey = (await admin.request({ method: 'GET', url: `/api/budget/${budgetId}/api-key` })).json().apiKey as string;
    const user = await createUser(app, [organization]);
    // The state an older installation left: a plaintext secret, an API key under a key kept in the database.
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    await app.db.insertInto('operational.mfa_secrets').values({ user_id: user.userId, secret, confirmed_at: new Date() }).execute();
    const legacyKey = randomBytes(32);
    await app.db.insertInto('operational.electronic_id_keys').values({ name: 'budget-api-key-aes-gcm', key: legacyKey }).execute();
    await app.db
      .updateTable('operational.budget_api_keys')
      .set({ key_ciphertext: legacySeal(legacyKey, apiKey) })
      .where('budget_id', '=', budgetId)
      .execute();

    for (let start = 1; start <= 2; start++) {
      admin = await restart();
      const stored = await app.db.selectFrom('operational.mfa_secrets').select('secret').where('user_id', '=', user.userId).executeTakeFirstOrThrow();
      expect(stored.secret).toMatch(/^v1:/);
      expect(
        await app.db.selectFrom('operational.electronic_id_keys').select('name').where('name', '=', 'budget-api-key-aes-gcm').executeTakeFirst(),
      ).toBeUndefined();
      const read = await admin.request({ method: 'GET', url: `/api/budget/${budgetId}/api-key` });
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json().apiKey).toBe(apiKey);
      await awayFromStepEdge();
      const browser = new Browser(app);
      expect((await browser.login(user.email, user.password)).json().code).toBe('ENTER_MFA_CODE');
      const upgraded = await browser.request({ method: 'POST', url: '/initial/auth/upgrade-session-to-mfa', payload: { code: codeFor(secret, start - 1) } });
      expect(upgraded.statusCode, upgraded.body).toBe(200);
    }
  });

  it('refuses to start in production without SECRETS_KEY or KEY_FILE, and takes a SECRETS_KEY of 32 bytes', async () => {
    const other = await createTestDatabase('secrets_prod');
    try {
      await expect(buildApp(testConfig(other.url, { environment: 'production', secrets: {} }))).rejects.toThrow(/SECRETS_KEY/);
      await expect(buildApp(testConfig(other.url, { secrets: { key: randomBytes(16).toString('base64') } }))).rejects.toThrow(/32 bytes/);
      const started = await buildApp(testConfig(other.url, { secrets: { key: randomBytes(32).toString('base64') } }));
      await started.close();
    } finally {
      await other.drop();
    }
  });
});
