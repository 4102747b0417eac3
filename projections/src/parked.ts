import { formatPosition, type GlobalPosition, type StoredEvent } from '@eelarve/eventstore';
import { type Generated, type Kysely, sql } from 'kysely';
import type { GenerationKey } from './checkpoints';

interface ParkedEventTable {
  projector: string;
  generation: number;
  // numeric(20, 0) comes back as a string: positions exceed 2^53.
  position_commit: string;
  position_prepare: string;
  stream_name: string;
  event_id: string;
  event_type: string;
  error: string;
  attempts: number;
  first_failed_at: Date;
  parked_at: Generated<Date>;
  replayed_at: Date | null;
}

interface ParkedTables {
  'projections.parked_events': ParkedEventTable;
}

/** An event a generation's handler kept failing on: skipped (a dead letter) so the rest of the log is applied. */
export interface ParkedEvent {
  projector: string;
  generation: number;
  position: GlobalPosition;
  streamName: string;
  eventId: string;
  eventType: string;
  error: string;
  /** Attempts that failed on it: the batch's retries plus the attempt on the event alone. */
  attempts: number;
  firstFailedAt: Date;
  parkedAt: Date;
}

/** How a generation's parked events show in the status: how many, and the first of them. */
export interface ParkedSummary {
  count: number;
  /** The oldest `PARKED_LISTED` parked events, in log order. */
  events: ParkedEvent[];
}

/** How many parked events of one generation the status lists (all are counted). */
export const PARKED_LISTED = 100;
const ERROR_LENGTH = 2_000;

function parked(db: Kysely<unknown>): Kysely<ParkedTables> {
  return db as unknown as Kysely<ParkedTables>;
}

/** The engine's log line (error level, once per parked event) carries the whole record. */
export class EventParkedError extends Error {
  constructor(readonly parked: ParkedEvent) {
    super(
      `projector ${parked.projector} generation ${parked.generation} parked event ${parked.eventId} (${parked.eventType} in ${parked.streamName} at ${formatPosition(parked.position)}) after ${parked.attempts} failed attempts and went on: ${parked.error}`,
    );
    this.name = 'EventParkedError';
  }
}

/** PostgreSQL text cannot hold NUL, and an error message may quote the event's data. */
function storableMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replaceAll('\u0000', '\uFFFD').slice(0, ERROR_LENGTH);
}

/** Records a dead letter; the caller moves the checkpoint past the event in the same transaction. */
export async function parkEvent(
  db: Kysely<unknown>,
  key: GenerationKey,
  event: StoredEvent,
  failure: { error: unknown; attempts: number; firstFailedAt: Date },
): Promise<ParkedEvent> {
  const row = await parked(db)
    .insertInto('projections.parked_events')
    .values({
      projector: key.projector,
      generation: key.generation,
      position_commit: event.position.commit.toString(),
      position_prepare: event.position.prepare.toString(),
      stream_name: event.streamName,
      event_id: event.id,
      event_type: event.type,
      error: storableMessage(failure.error),
      attempts: failure.attempts,
      first_failed_at: failure.firstFailedAt,
      replayed_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toParkedEvent(row);
}

function toParkedEvent(row: Omit<ParkedEventTable, 'parked_at'> & { parked_at: Date }): ParkedEvent {
  return {
    projector: row.projector,
    generation: row.generation,
    position: { commit: BigInt(row.position_commit), prepare: BigInt(row.position_prepare) },
    streamName: row.stream_name,
    eventId: row.event_id,
    eventType: row.event_type,
    error: row.error,
    attempts: row.attempts,
    firstFailedAt: row.first_failed_at,
    parkedAt: row.parked_at,
  };
}

/** Key of a generation in the map `loadParkedSummaries` returns. */
export function generationKeyOf(key: GenerationKey): string {
  return `${key.projector}/${key.generation}`;
}

/** Parked events not yet replayed, per generation (see `generationKeyOf`). */
export async function loadParkedSummaries(db: Kysely<unknown>): Promise<Map<string, ParkedSummary>> {
  const { rows } = await sql<ParkedEventTable & { parked_at: Date; total: string }>`
    select * from (
      select p.*,
        count(*) over (partition by projector, generation) as total,
        row_number() over (partition by projector, generation order by position_commit, position_prepare) as nth
      from projections.parked_events p
      where replayed_at is null
    ) listed
    where nth <= ${PARKED_LISTED}
    order by projector, generation, nth`.execute(db);
  const summaries = new Map<string, ParkedSummary>();
  for (const row of rows) {
    const key = generationKeyOf(row);
    const summary = summaries.get(key) ?? { count: Number(row.total), events: [] };
    summary.events.push(toParkedEvent(row));
    summaries.set(key, summary);
  }
  return summaries;
}

/** A rebuild replaced the generation: its parked events were replayed from the log by the new one. */
export async function markParkedReplayed(db: Kysely<unknown>, key: GenerationKey): Promise<void> {
  await parked(db)
    .updateTable('projections.parked_events')
    .set({ replayed_at: sql<Date>`now()` })
    .where('projector', '=', key.projector)
    .where('generation', '=', key.generation)
    .where('replayed_at', 'is', null)
    .execute();
}

/** Forgets the parked events of a generation that is dropped unfinished (or of every generation). */
export async function deleteParkedEvents(db: Kysely<unknown>, projector: string, generation?: number): Promise<void> {
  await parked(db)
    .deleteFrom('projections.parked_events')
    .where('projector', '=', projector)
    .$if(generation !== undefined, (query) => query.where('generation', '=', generation!))
    .execute();
}
