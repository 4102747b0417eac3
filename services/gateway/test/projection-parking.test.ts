import { randomUUID } from 'node:crypto';
import { formatPosition } from '@eelarve/eventstore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '@eelarve/testing/server';
import type { Client } from './helpers';
import { schemesWorld } from './schemes-world';

let server: TestServer;
let admin: Client;
let schemaAdmin: Client;
let documentId: string;

beforeAll(async () => {
  const world = await schemesWorld('Tartu Linnavalitsus', 'Narva Linnavalitsus');
  ({ server, admin, schemaAdmin } = world);
  documentId = await world.fixture.document(world.organizationId);
});
afterAll(async () => server?.close());

/**
 * The event `POST /api/document/{doc}/schema` with `"displayOrder": 9007199254740991` used to
 * append (the contract now bounds the number, so it goes to the store directly): the schemes
 * projector's integer column refuses it. It belongs to another organisation's document.
 */
function unprojectableScheme() {
  const otherDocument = randomUUID();
  const organizationId = randomUUID();
  return {
    stream: `document-schemes-${otherDocument}`,
    event: {
      id: randomUUID(),
      type: 'SchemeCreated',
      data: {
        documentId: otherDocument,
        organizationId,
        schemeId: randomUUID(),
        name: 'Katki',
        fieldName: 'katki',
        description: '',
        displayOrder: 9007199254740991,
        classifierList: [],
      },
      metadata: {
        correlationId: randomUUID(),
        causationId: null,
        userId: null,
        occupationId: null,
        organizationId,
        occurredAt: new Date().toISOString(),
        schemaVersion: 1,
      },
    },
  };
}

type ParkedBody = { position: string; streamName: string; eventId: string; eventType: string; error: string; attempts: number };
type StatusBody = { name: string; generation: number; role: string; state: string; parkedCount: number; parkedEvents: ParkedBody[] };

async function schemesStatus(): Promise<StatusBody[]> {
  const response = await admin.request({ method: 'GET', url: '/api/admin/projections' });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as StatusBody[]).filter((row) => row.name === 'schemes');
}

describe('a scheme event the schemes projector cannot apply', () => {
  it('is parked and reported, and scheme changes of every organisation stay visible', async () => {
    const { stream, event } = unprojectableScheme();
    const { position } = await server.app.store.append(stream, [event], { expectedRevision: 'any' });

    // Read-your-writes for that event ends once it is parked (default retries), not after the 5 s timeout.
    const waited = Date.now();
    expect(await server.app.projections.waitForPosition(['schemes'], position, 5_000)).toBe(true);
    expect(Date.now() - waited).toBeLessThan(4_000);

    // A following valid scheme change is applied and visible at once.
    const created = await schemaAdmin.request({ method: 'POST', url: `/api/document/${documentId}/schema`, payload: { name: 'Pärast riket' } });
    expect(created.statusCode, created.body).toBe(201);
    const listed = await schemaAdmin.request({ method: 'GET', url: `/api/document/${documentId}/schemas` });
    expect(listed.json().map((scheme: { name: string }) => scheme.name)).toEqual(['Pärast riket']);

    const [active] = await schemesStatus();
    expect(active).toMatchObject({ generation: 1, role: 'active', state: 'live', parkedCount: 1 });
    expect(active!.parkedEvents).toEqual([
      expect.objectContaining({ position: formatPosition(position), streamName: stream, eventId: event.id, eventType: 'SchemeCreated', attempts: 6 }),
    ]);
    expect(active!.parkedEvents[0]!.error).toContain('out of range for type integer');

    // Ready to serve, and saying which projector is degraded by which events (no stream or data).
    const ready = await server.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'degraded',
      degraded: [
        {
          name: 'schemes',
          generation: 1,
          role: 'active',
          parkedCount: 1,
          parkedEvents: [{ position: formatPosition(position), eventType: 'SchemeCreated', eventId: event.id, parkedAt: expect.any(String) }],
        },
      ],
    });
    expect(ready.body).not.toContain(stream);
  });

  it('is parked again by a rebuild whose projector still fails on it, which says so', async () => {
    const rebuild = await admin.request({ method: 'POST', url: '/api/admin/projections/schemes/rebuild' });
    expect(rebuild.statusCode, rebuild.body).toBe(202);
    await expect
      .poll(async () => (await schemesStatus()).map((row) => `${row.role} g${row.generation} parked ${row.parkedCount}`), { timeout: 30_000, interval: 200 })
      .toEqual(['active g2 parked 1']);
    const listed = await schemaAdmin.request({ method: 'GET', url: `/api/document/${documentId}/schemas` });
    expect(listed.json().map((scheme: { name: string }) => scheme.name)).toEqual(['Pärast riket']);
    const ready = await server.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.json()).toMatchObject({ status: 'degraded', degraded: [{ name: 'schemes', generation: 2, parkedCount: 1 }] });
  });
});
