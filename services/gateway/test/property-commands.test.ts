import { comparePositions, formatPosition } from '@eelarve/eventstore';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login } from './helpers';
import { buildWorld, commandRoutes, fillPath, idsByField, type RouteUnderTest, type World } from './route-world';
import { mixedBodyArbitrary } from './zod-arbitrary';

/**
 * Issue 8, finding 1: no accepted command may carry a value its read model cannot hold (one
 * `displayOrder: 9007199254740991` once stopped the schemes projector for every organisation).
 * fast-check sends bodies derived from each command route's own zod schema, mutated around it
 * (boundary and huge integers, negatives, fractions, number-like strings, nested junk), to every
 * state-changing route the app registers, as the platform administrator over a world it made
 * through the API. No answer may be 500, and afterwards every projector must have applied the
 * whole log without an error or a parked event.
 */

const RUNS = Number(process.env.PROPERTY_COMMAND_RUNS ?? 600);

let server: TestServer;
let admin: Client;
let world: World;
const statuses = new Map<number, number>();
let sent = 0;
/** Accepted requests per route, to see that generated bodies reach the commands too. */
const accepted = new Map<string, number>();

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  world = await buildWorld(admin);
}, 60_000);
afterAll(async () => server?.close());

async function send(route: RouteUnderTest, body: unknown): Promise<{ status: number; text: string }> {
  const response = await admin.request({
    method: route.method as 'POST',
    url: fillPath(route.url, world),
    ...(body === undefined ? {} : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  sent += 1;
  statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
  if (response.statusCode < 300) accepted.set(route.key, (accepted.get(route.key) ?? 0) + 1);
  return { status: response.statusCode, text: response.body };
}

/** The `id` of a reorder list names what the route orders. */
function listedId(url: string): string {
  if (url.endsWith('/documents/order')) return world.document;
  if (url.endsWith('/budgets/order')) return world.budget;
  if (url.endsWith('/schema-display-order')) return world.scheme;
  if (url.endsWith('/classifier-order')) return world.classifier;
  return world.document;
}

function routeWithBody(routes: RouteUnderTest[]) {
  const knownIds = Object.values(world);
  return fc.constantFrom(...routes).chain((route) => {
    const ids = { knownIds, idsByField: { ...idsByField(world), id: [listedId(route.url)] } };
    return fc.tuple(fc.constant(route), mixedBodyArbitrary(route.body as never, ids));
  });
}

async function expectNo500(routes: RouteUnderTest[], numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(routeWithBody(routes), async ([route, body]) => {
      const answer = await send(route, body);
      expect(answer.status, `${route.key} ${JSON.stringify(body)?.slice(0, 500)} -> ${answer.text.slice(0, 500)}`).toBeLessThan(500);
    }),
    { numRuns, endOnFailure: true },
  );
}

async function projectorsCaughtUp(): Promise<void> {
  const head = await server.app.store.headPosition();
  const deadline = Date.now() + 15_000;
  let rows = await server.app.projections.status();
  while (Date.now() < deadline && rows.some((row) => comparePositions(row.position, head) < 0 && !row.lastError)) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    rows = await server.app.projections.status();
  }
  const active = rows.filter((row) => row.role === 'active');
  expect(active.map((row) => row.name).sort()).toEqual([...server.app.projections.projectorNames()].sort());
  for (const row of active) {
    // parkedCount: events the engine set aside after repeated failures (dead letters).
    expect(
      { name: row.name, error: row.lastError, parked: row.parkedCount, behind: comparePositions(row.position, head) < 0 },
      `head ${formatPosition(head)}`,
    ).toEqual({
      name: row.name,
      error: null,
      parked: 0,
      behind: false,
    });
  }
}

describe('every command route under generated bodies', () => {
  it('never answers 500, and every projector applies all that was appended', async () => {
    const routes = commandRoutes(server.app);
    expect(routes.length).toBeGreaterThan(40);
    // Deleting routes go last, so the others keep finding the world they address.
    const deleting = routes.filter((route) => route.method === 'DELETE');
    await expectNo500(
      routes.filter((route) => route.method !== 'DELETE'),
      RUNS,
    );
    await expectNo500(deleting, Math.max(20, Math.round(RUNS / 8)));
    await projectorsCaughtUp();
    console.log(`property-commands: ${sent} requests to ${routes.length} command routes, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    if (process.env.PROPERTY_COMMAND_DEBUG) console.log(routes.map((route) => `${route.key}: ${accepted.get(route.key) ?? 0}`).join('\n'));
    expect(statuses.get(500) ?? 0).toBe(0);
  }, 120_000);
});
