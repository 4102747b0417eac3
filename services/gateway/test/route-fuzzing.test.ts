import { formatPosition } from '@eelarve/eventstore';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login, validOrganization } from './helpers';
import fc from 'fast-check';
import { apiRoutes, buildWorld, fillPath, idsByField, type RouteUnderTest, SESSION_ENDING_ROUTES, type World } from './route-world';
import { bodyArbitrary } from './zod-arbitrary';

/**
 * Issue 8, finding 2: text PostgreSQL cannot store (U+0000; lone surrogates) and other control
 * characters answered 500, or were stored. Every text field refuses control characters with 400
 * SCHEMA_VALIDATION_ERROR and `validation.controlCharacters`; the gateway's text guard refuses
 * NUL and lone surrogates anywhere in a request. Then every route the app registers (all
 * methods, real ids and garbage in the path), unauthenticated and as the platform administrator,
 * gets bodies and query strings with NUL bytes, lone surrogates, 1 MB strings, deeply nested JSON
 * and wrong types: no answer may be 500, and a refused request appends nothing.
 */

let server: TestServer;
let admin: Client;
let world: World;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  world = await buildWorld(admin);
}, 60_000);
afterAll(async () => server?.close());

const json = (text: string) => ({ payload: text, headers: { 'content-type': 'application/json' } });

function expectControlCharacters(response: { statusCode: number; body: string }, path: string) {
  expect(response.statusCode, response.body).toBe(400);
  const body = JSON.parse(response.body) as { code: string; details: Array<{ path: string; message: string }> };
  expect(body.code).toBe('SCHEMA_VALIDATION_ERROR');
  expect(body.details).toContainEqual(expect.objectContaining({ path, message: 'validation.controlCharacters' }));
}

describe('text fields refuse control characters', () => {
  it('answers 400 for a NUL byte in the sign-in name, without a session', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/initial/auth/login', payload: { username: 'a\u0000b@x.test', password: 'x' } });
    expectControlCharacters(response, 'body.username');
  });

  it('answers 400 for a lone surrogate sent as raw JSON', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/initial/auth/login', ...json('{"username":"\\ud800@x.test","password":"x"}') });
    expectControlCharacters(response, 'body.username');
  });

  it('refuses NUL in organisation names, role names and descriptions, and budget tags', async () => {
    expectControlCharacters(
      await admin.request({ method: 'POST', url: '/api/organization', payload: { ...validOrganization, name: 'Linn\u0000' } }),
      'body.name',
    );
    const role = (payload: object) => admin.request({ method: 'POST', url: `/api/organization/${world.organization}/role`, payload });
    expectControlCharacters(await role({ name: 'Roll\u0000', privilegeIds: [] }), 'body.name');
    expectControlCharacters(await role({ name: 'Roll', description: 'a\u0000b', privilegeIds: [] }), 'body.description');
    expectControlCharacters(
      await admin.request({ method: 'PUT', url: `/api/budget/${world.budget}/tags`, payload: { tags: ['ok', 'x\u0000'] } }),
      'body.tags.1',
    );
  });

  it('keeps tab and line breaks in text areas but refuses them and C1 controls in single-line text', async () => {
    const role = (payload: object) => admin.request({ method: 'POST', url: `/api/organization/${world.organization}/role`, payload });
    const multiLine = await role({ name: 'Mitmerealine', description: 'esimene rida\r\n\tteine rida', privilegeIds: [] });
    expect(multiLine.statusCode, multiLine.body).toBe(201);
    expectControlCharacters(await role({ name: 'Kaks\nrida', privilegeIds: [] }), 'body.name');
    expectControlCharacters(await role({ name: 'Nimi\u0085', privilegeIds: [] }), 'body.name');
    expectControlCharacters(await role({ name: 'Nimi', description: 'kell\u0007', privilegeIds: [] }), 'body.description');
  });

  it('refuses NUL in a header, a path parameter and the query string with 400', async () => {
    const header = await server.app.inject({
      method: 'POST',
      url: '/initial/auth/login',
      headers: { 'user-agent': 'a\u0000b' },
      payload: { username: 'a@x.test', password: 'x' },
    });
    expect(header.statusCode, header.body).toBe(400);
    const param = await admin.request({ method: 'GET', url: '/api/document/%00' });
    expect(param.statusCode, param.body).toBe(400);
    const query = await admin.request({ method: 'GET', url: `/api/admin/budgets?inclusionList=%00` });
    expectControlCharacters(query, 'querystring.inclusionList');
  });
});

// ---- every route -----------------------------------------------------------------------------

const MEGABYTE = 'x'.repeat(1024 * 1024);
const DEPTH = 5_000;

/** Bodies no route should choke on: raw JSON text, so lone surrogates and depth arrive as sent. */
const BODIES: Array<[string, string]> = [
  ['nul', JSON.stringify({ name: 'a\u0000b', description: '\u0000', username: '\u0000', list: [{ id: '\u0000', order: 1 }], tags: ['\u0000'] })],
  ['nul key', '{"a\\u0000b":1,"settings":{"\\u0000":"x"}}'],
  ['lone surrogate', '{"name":"\\ud800","description":"x\\udc00y","code":"\\ud800","email":"\\udfff@x.test","tags":["\\ud800"]}'],
  ['lone surrogate string', '"\\ud800"'],
  ['1 MB strings', JSON.stringify({ name: MEGABYTE, description: MEGABYTE, email: MEGABYTE, password: MEGABYTE, token: MEGABYTE })],
  ['deep array', `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`],
  ['deep object', `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`],
  ['wrong types', JSON.stringify({ name: 1e308, description: [], list: 'x', tags: { a: 1 }, period: 'now', displayOrder: '1', order: null, settings: 5 })],
  ['array', '[1,"a",null,{}]'],
  ['number', '-9007199254740993'],
  ['not json', '{"name":'],
];

const GARBAGE_PARAMS = ['%00', '%ED%A0%80', 'x'.repeat(2048), '..%2F..%2Fetc', '-1', '9999999999999999999999'];

function queriesFor(route: RouteUnderTest): string[] {
  const keys = route.queryKeys.length > 0 ? route.queryKeys : ['q'];
  return [
    keys.map((key) => `${key}=%00`).join('&'),
    keys.map((key) => `${key}=%ED%A0%80`).join('&'),
    keys.map((key) => `${key}=${'y'.repeat(100_000)}`).join('&'),
    `${keys[0]}[a][b]=1&${keys[0]}=2`,
  ];
}

/**
 * Well-shaped bodies for the route (from its zod schema, a fixed seed) with NUL or a lone
 * surrogate at the end of every free text and record key: they pass every other check, so only
 * the text rules stand between them and PostgreSQL.
 */
function poisonedBodies(route: RouteUnderTest): Array<[string, string]> {
  if (!route.body) return [];
  const marks: Array<[string, string]> = [
    ['NUL', '\u0000'],
    ['lone surrogate', '\ud800'],
  ];
  return marks.flatMap(([name, mark]) => {
    const arbitrary = bodyArbitrary(route.body as never, { knownIds: Object.values(world), idsByField: idsByField(world), junkWeight: 0, mark });
    return fc
      .sample(arbitrary, { numRuns: 3, seed: 8 })
      .filter((sample) => sample !== undefined)
      .map((sample): [string, string] => [`${name} in every text`, JSON.stringify(sample)]);
  });
}

interface Sent {
  count: number;
  statuses: Map<number, number>;
}

async function sendChecked(client: Client | null, options: InjectOptions, sent: Sent, label: string): Promise<void> {
  const before = await server.app.store.headPosition();
  const response = client ? await client.request(options) : await server.app.inject(options);
  sent.count += 1;
  sent.statuses.set(response.statusCode, (sent.statuses.get(response.statusCode) ?? 0) + 1);
  const what = `${label}: ${options.method} ${String(options.url).slice(0, 120)} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(response.statusCode, what).toBeLessThan(500);
  if (response.statusCode >= 400) {
    const after = await server.app.store.headPosition();
    expect(formatPosition(after), `${what} appended`).toBe(formatPosition(before));
  }
}

async function fuzzRoute(route: RouteUnderTest, client: Client | null, sent: Sent): Promise<void> {
  const label = client ? 'admin' : 'anonymous';
  const url = fillPath(route.url, world);
  const method = route.method as InjectOptions['method'];
  const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
  if (hasBody) {
    for (const [name, body] of [...BODIES, ...poisonedBodies(route)]) await sendChecked(client, { method, url, ...json(body) }, sent, `${label} ${name}`);
  }
  for (const query of queriesFor(route)) await sendChecked(client, { method, url: `${url}?${query}`, ...(hasBody ? json('{}') : {}) }, sent, `${label} query`);
  if (route.url.includes(':')) {
    for (const garbage of GARBAGE_PARAMS) {
      const garbled = fillPath(route.url, world, () => garbage).replaceAll(encodeURIComponent(garbage), garbage);
      await sendChecked(client, { method, url: garbled, ...(hasBody ? json(BODIES[0]?.[1] ?? '{}') : {}) }, sent, `${label} garbage path`);
    }
  }
}

describe('every route under hostile input', () => {
  it('never answers 500 and appends nothing when it refuses', async () => {
    const routes = apiRoutes(server.app).filter((route) => !SESSION_ENDING_ROUTES.has(route.key));
    expect(routes.length).toBeGreaterThan(100);
    // Deleting routes last: a wrong-typed body may be ignored and the delete succeed.
    const ordered = [...routes.filter((route) => route.method !== 'DELETE'), ...routes.filter((route) => route.method === 'DELETE')];
    const sent: Sent = { count: 0, statuses: new Map() };
    for (const client of [null, admin]) {
      for (const route of ordered) await fuzzRoute(route, client, sent);
    }
    // What the accepted requests appended, every projector could apply.
    for (const row of (await server.app.projections.status()).filter((candidate) => candidate.role === 'active')) {
      expect({ error: row.lastError, parked: row.parkedCount }, row.name).toEqual({ error: null, parked: 0 });
    }
    console.log(`route-fuzzing: ${sent.count} requests to ${routes.length} routes, statuses ${JSON.stringify(Object.fromEntries([...sent.statuses].sort()))}`);
  }, 300_000);
});
