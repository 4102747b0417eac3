import { randomUUID } from 'node:crypto';
import type { GlobalPosition } from '@eelarve/eventstore';
import type { Kysely } from 'kysely';
import { startProjections } from '../src/engine';
import type { Projector } from '../src/projector';
import { type ReadDatabase, readModels } from '../src/read-models';
import { createHarness, type Harness, newEvent } from './support';

/** One event as a spec writes it: which stream, which type, which data. */
export interface GivenEvent {
  stream: string;
  type: string;
  data: unknown;
  /** Metadata overrides (the acting user, organisation, when it happened). */
  metadata?: Partial<{ userId: string | null; occupationId: string | null; organizationId: string | null; occurredAt: string }>;
}

export interface ProjectorSpec {
  /** Appends events and waits until the projector has applied them. */
  given(...events: GivenEvent[]): Promise<void>;
  /** The read models as queries see them (the `read` schema's views of the active generation). */
  read: ReadDatabase;
  db: Kysely<unknown>;
  close(): Promise<void>;
}

/**
 * A projector on a real PostgreSQL, for specs in the shape "given these events, when projected,
 * then these rows and this query answer" (emmett's read-model specs). Each spec gets its own
 * database, event store and engine running just the projectors under test.
 */
export async function projectorSpec(projectors: Projector[] | Projector): Promise<ProjectorSpec> {
  const harness: Harness = await createHarness();
  const list = Array.isArray(projectors) ? projectors : [projectors];
  const engine = await startProjections({ pool: harness.pool, store: harness.store, projectors: list as never, pollIntervalMs: 50, onError: () => {} });
  const names = list.map((projector) => projector.name);
  return {
    read: readModels(harness.db),
    db: harness.db,
    async given(...events) {
      let last: GlobalPosition | undefined;
      for (const event of events) {
        const appended = newEvent(event.type, event.data);
        appended.metadata = { ...appended.metadata, ...event.metadata };
        last = (await harness.store.append(event.stream, [appended], { expectedRevision: 'any' })).position;
      }
      if (last && !(await engine.waitForPosition(names, last, 10_000))) {
        const status = await engine.status();
        throw new Error(`projectors did not apply the given events: ${JSON.stringify(status)}`);
      }
    },
    async close() {
      await engine.stop();
      await harness.close();
    },
  };
}

export const newId = () => randomUUID();
