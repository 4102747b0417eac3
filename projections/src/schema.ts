import { migrate } from '@eelarve/postgres';
import { type Kysely, sql } from 'kysely';

/** Holds the engine's own bookkeeping: one checkpoint row per projector generation, and parked events. */
export const CONTROL_SCHEMA = 'projections';
/** Holds one view per read-model table, pointing at the active generation. Queries read here. */
export const READ_SCHEMA = 'read';
/** NOTIFY channel on which rebuild requests reach the process that runs the projector. */
export const CONTROL_CHANNEL = 'projections_control';

/** The schema one generation of a projector builds into. */
export function generationSchema(projector: string, generation: number): string {
  return `rm_${projector}_g${generation}`;
}

/** A projector's advisory-lock key is `hashtextextended(LOCK_PREFIX || name, 0)`. */
export const LOCK_PREFIX = 'eelarve.projector:';

export async function migrateControlSchema(db: Kysely<unknown>): Promise<void> {
  await migrate(db, 'projections', {
    '0001_checkpoints': {
      async up(db) {
        await sql`create schema if not exists ${sql.id(CONTROL_SCHEMA)}`.execute(db);
        await sql`create schema if not exists ${sql.id(READ_SCHEMA)}`.execute(db);
        // role: 'active' serves the read views, 'building' is a rebuild in progress.
        // status: 'catching-up' until the generation first reaches the head, then 'live';
        // 'stopped' for an outdated version's generation that serves, frozen, during its rebuild.
        await sql`
          create table projections.checkpoints (
            projector text not null,
            generation integer not null,
            schema_name text not null,
            version integer not null,
            tables text[] not null,
            role text not null check (role in ('active', 'building')),
            status text not null default 'catching-up' check (status in ('catching-up', 'live', 'stopped')),
            position_commit numeric(20, 0) not null default -1,
            position_prepare numeric(20, 0) not null default -1,
            events_applied bigint not null default 0,
            rebuild_requested boolean not null default false,
            last_error text,
            created_at timestamptz not null default now(),
            updated_at timestamptz not null default now(),
            primary key (projector, generation)
          )`.execute(db);
        await sql`create unique index checkpoints_one_active on projections.checkpoints (projector) where role = 'active'`.execute(db);
        await sql`create unique index checkpoints_one_building on projections.checkpoints (projector) where role = 'building'`.execute(db);
      },
    },
    '0002_parked_events': {
      async up(db) {
        // Dead letters: events a generation's handler kept failing on, skipped so the rest of the
        // log still reaches the read model. replayed_at is set when a rebuild replaces the generation.
        await sql`
          create table projections.parked_events (
            projector text not null,
            generation integer not null,
            position_commit numeric(20, 0) not null,
            position_prepare numeric(20, 0) not null,
            stream_name text not null,
            event_id uuid not null,
            event_type text not null,
            error text not null,
            attempts integer not null,
            first_failed_at timestamptz not null,
            parked_at timestamptz not null default now(),
            replayed_at timestamptz,
            primary key (projector, generation, position_commit, position_prepare)
          )`.execute(db);
        await sql`create index parked_events_unreplayed on projections.parked_events (projector, generation) where replayed_at is null`.execute(db);
      },
    },
  });
}
