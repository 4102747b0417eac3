import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemesFixture } from '@eelarve/testing/schemes';
import { accountsFixture } from '@eelarve/testing/accounts';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login } from './helpers';

/**
 * Issue 8, finding 8: renames racing with creates, renames back and failing renames must never
 * leave two live records with one name, and a name given up must be free again afterwards.
 * Each kind runs ROUNDS bursts of concurrent requests over the HTTP API, then reads the read
 * models.
 */
const ROUNDS = Number(process.env.UNIQUE_NAMES_ROUNDS ?? 16);
const STAGGER_MS = 40;

let server: TestServer;
let admin: Client;
let organizationId: string;
let documentId: string;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  organizationId = await accountsFixture(server.app, admin).organization('Võru Vallavalitsus');
  documentId = await schemesFixture(server.app).document(organizationId);
});
afterAll(async () => server?.close());

type Response = { statusCode: number; body: string; json(): { id: string; code?: string } };

/** One kind of uniquely named record, driven through its routes. */
interface NamedRecords {
  create(name: string): Promise<Response>;
  rename(id: string, name: string): Promise<Response>;
  remove(id: string): Promise<Response>;
  /** Live records in the read model: id and name as the unique comparison sees it. */
  live(): Promise<Array<{ id: string; key: string }>>;
  /** What a request that lost to a taken name answers. */
  taken: string;
  notFound: string;
}

function createdId(response: Response): string {
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

/** Names of one round: A, B and C start on three records, X is fought over. */
const roundNames = (kind: string, round: number) => ({ a: `${kind}a${round}`, b: `${kind}b${round}`, c: `${kind}c${round}`, x: `${kind}x${round}` });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts each request after a random pause, so that they interleave differently in every round. */
const staggered = (requests: Array<() => Promise<Response>>) => Promise.all(requests.map(async (request) => pause(Math.random() * STAGGER_MS).then(request)));

async function burst(records: NamedRecords, round: number, name: (base: string) => string): Promise<Response[]> {
  const n = roundNames('n', round);
  const [one, two, three] = [
    createdId(await records.create(name(n.a))),
    createdId(await records.create(name(n.b))),
    createdId(await records.create(name(n.c))),
  ];
  return staggered([
    () => records.rename(one, name(n.x)),
    () => records.rename(one, name(n.a)), // rename back
    () => records.create(name(n.x)),
    () => records.rename(two, name(n.x).toUpperCase()),
    () => records.rename(one, name(n.x)),
    () => records.rename(two, name(n.b)),
    () => records.rename(one, name(n.a)),
    () => records.remove(three),
    () => records.rename(three, name(n.x)), // fails after its claim when the delete wins
    () => records.rename(two, name(n.a)),
    () => records.rename(one, name(n.x)),
    () => records.create(name(n.a)),
    () => records.rename(one, name(n.b)),
    () => records.rename(three, name(n.c)),
    () => records.rename(one, name(n.a)),
    () => records.create(name(n.c)),
  ]);
}

function duplicates(rows: Array<{ id: string; key: string }>): string[] {
  const seen = new Map<string, string[]>();
  for (const row of rows) seen.set(row.key, [...(seen.get(row.key) ?? []), row.id]);
  return [...seen].filter(([, ids]) => ids.length > 1).map(([key, ids]) => `${key}: ${ids.join(', ')}`);
}

async function raceRounds(records: NamedRecords, name: (base: string) => string, key: (name: string) => string): Promise<void> {
  const answers = new Map<string, number>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const response of await burst(records, round, name)) {
      const answer = `${response.statusCode} ${response.statusCode < 300 ? 'ok' : response.json().code}`;
      answers.set(answer, (answers.get(answer) ?? 0) + 1);
    }
  }
  // Only successes and the two honest refusals: the name is taken, or the record was deleted meanwhile.
  for (const answer of answers.keys()) expect(['200 ok', '201 ok', `409 ${records.taken}`, `404 ${records.notFound}`]).toContain(answer);
  const live = await records.live();
  expect(duplicates(live)).toEqual([]);
  // Every name of the rounds that no live record carries can be taken again; a carried one cannot.
  const carried = new Set(live.map((row) => row.key));
  for (let round = 0; round < ROUNDS; round++) {
    for (const base of Object.values(roundNames('n', round))) {
      const response = await records.create(name(base));
      if (carried.has(key(name(base)))) expect({ status: response.statusCode, code: response.json().code }).toEqual({ status: 409, code: records.taken });
      else expect(response.statusCode, `${name(base)} should be free again: ${response.body}`).toBe(201);
    }
  }
  expect(duplicates(await records.live())).toEqual([]);
}

describe('unique names under racing renames and creates', () => {
  it('role names stay unique within the organisation', { timeout: 240_000 }, async () => {
    const url = `/api/organization/${organizationId}`;
    const body = (name: string) => ({ name, description: '', privilegeIds: ['DATA_VIEW'] });
    const roles: NamedRecords = {
      create: (name) => admin.request({ method: 'POST', url: `${url}/role`, payload: body(name) }),
      rename: (id, name) => admin.request({ method: 'PUT', url: `${url}/role/${id}`, payload: { id, organizationId, ...body(name) } }),
      remove: (id) => admin.request({ method: 'DELETE', url: `${url}/role/${id}` }),
      async live() {
        const rows: Array<{ id: string; name: string }> = (await admin.request({ method: 'GET', url: `${url}/roles` })).json() as never;
        return rows.map((row) => ({ id: row.id, key: row.name.trim().toLowerCase() }));
      },
      taken: 'ROLE_NAME_NOT_UNIQUE',
      notFound: 'ROLE_NOT_FOUND',
    };
    await raceRounds(
      roles,
      (base) => `Role ${base}`,
      (name) => name.trim().toLowerCase(),
    );
  });

  it('user e-mails stay unique', { timeout: 240_000 }, async () => {
    const url = `/api/organization/${organizationId}`;
    const users: NamedRecords = {
      create: (email) => admin.request({ method: 'POST', url: `${url}/user`, payload: { name: 'Racer', email } }),
      rename: (id, email) => admin.request({ method: 'PUT', url: `${url}/user/${id}`, payload: { name: 'Racer', email } }),
      remove: (id) => admin.request({ method: 'DELETE', url: `${url}/user/${id}` }),
      async live() {
        // Every organisation: an e-mail is unique among all users.
        const rows = await server.app.db
          .selectFrom('read.users' as never)
          .select(['id', 'email'] as never)
          .execute();
        return (rows as Array<{ id: string; email: string }>).map((row) => ({ id: row.id, key: row.email.toLowerCase() }));
      },
      taken: 'EMAIL_IN_USE',
      notFound: 'USER_NOT_FOUND',
    };
    await raceRounds(
      users,
      (base) => `${base}@race.example.com`,
      (email) => email.toLowerCase(),
    );
  });

  it('classifier field names stay unique within the document', { timeout: 240_000 }, async () => {
    const body = (fieldName: string) => ({
      name: `Klassifikaator ${fieldName}`,
      itemName: 'Element',
      fieldName,
      description: '',
      codeSettings: { typeName: 'Code', minLength: 1, maxLength: 20, hierarchical: false },
    });
    const classifiers: NamedRecords = {
      create: (fieldName) => admin.request({ method: 'POST', url: `/api/document/${documentId}/classifier`, payload: body(fieldName) }),
      rename: (id, fieldName) => admin.request({ method: 'PUT', url: `/api/classifier/${id}`, payload: body(fieldName) }),
      remove: (id) => admin.request({ method: 'DELETE', url: `/api/classifier/${id}` }),
      async live() {
        const rows: Array<{ id: string; fieldName: string }> = (
          await admin.request({ method: 'GET', url: `/api/document/${documentId}/classifiers` })
        ).json() as never;
        return rows.map((row) => ({ id: row.id, key: row.fieldName.toLowerCase() }));
      },
      taken: 'FIELD_NAME_NOT_UNIQUE',
      notFound: 'CLASSIFIER_NOT_FOUND',
    };
    await raceRounds(
      classifiers,
      (base) => `field_${base}`,
      (fieldName) => fieldName.toLowerCase(),
    );
  });
});
