import { createKysely, migrate, type Pool } from '@eelarve/postgres';
import { type Migration, sql } from 'kysely';

/**
 * The global order is (transaction_id, position): `position` is handed out when a row is
 * inserted, `transaction_id` is the writing transaction. Readers only see transactions below the
 * oldest one still running, so an order they have seen never gains an event in the middle.
 */
const createTables = `
create schema if not exists eventstore;

create table eventstore.streams (
  stream_name text primary key,
  revision bigint not null
);

create table eventstore.events (
  position bigint generated always as identity,
  transaction_id xid8 not null default pg_current_xact_id(),
  event_id uuid not null unique,
  stream_name text not null,
  stream_revision bigint not null,
  type text not null,
  data jsonb not null,
  metadata jsonb not null,
  created_at timestamptz not null default now(),
  primary key (transaction_id, position),
  unique (stream_name, stream_revision)
);
`;

/**
 * A group of appends in one transaction and one round trip. Append i puts the events
 * p_starts[i] .. p_starts[i] + p_counts[i] - 1 (ids and types as arrays; data and metadata as
 * JSON arrays, which cost the client no escaping) into p_streams[i], all or nothing.
 *
 * Each append reports its outcome instead of raising, so that the appends of a group stay
 * independent: 'appended'; 'retried' (these event ids were appended before: the original
 * result); 'wrong_expected_revision' or 'idempotency_conflict' (the ids belong to another
 * append), where last_revision is the stream's revision (-1: no stream).
 *
 * Streams are locked in name order, so concurrent groups cannot deadlock on each other.
 * Listeners of eventstore_appended hear of the commit, once per group: NOTIFY holds a
 * cluster-wide lock through the commit, so one per append would serialise the appends.
 * The loop body is not a function of its own because a PL/pgSQL call costs more than the
 * statements of an append.
 */
const createAppendEvents = `
create function eventstore.append_events(
  p_streams text[], p_expected text[], p_starts int[], p_counts int[],
  p_ids uuid[], p_types text[], p_data jsonb, p_metadata jsonb)
returns table (append_index int, outcome text, last_revision bigint, commit_position xid8, prepare_position bigint)
-- Its statements look rows up by key, so one generic plan each is right, and planning them
-- anew per call (which the planner would, misjudging the row counts) costs more than running
-- them. A sequential scan is never right either, but a plan made while the tables were small
-- would keep scanning them as they grow.
language plpgsql
set plan_cache_mode = force_generic_plan
set enable_seqscan = off
as $fn$
declare
  v_stream text;
  v_first int;
  v_count int;
  v_ids uuid[];
  v_current bigint;
  v_found bigint;
  v_same_append boolean;
  v_expected_ok boolean;
begin
  for append_index in
    select s.ord from unnest(p_streams) with ordinality as s(name, ord) order by s.name, s.ord
  loop
    v_stream := p_streams[append_index];
    v_first := p_starts[append_index];
    v_count := p_counts[append_index];
    v_ids := p_ids[v_first : v_first + v_count - 1];
    commit_position := null;
    prepare_position := null;

    -- Claims the next revisions in one statement, creating the stream when needed. Its row
    -- lock serialises the writers of the stream; an append refused below gives them back.
    insert into eventstore.streams as s (stream_name, revision) values (v_stream, v_count - 1)
      on conflict (stream_name) do update set revision = s.revision + v_count
      returning s.revision - v_count into v_current;
    last_revision := v_current;

    -- A retry of an append that went through answers as the original did. The cheap probe
    -- comes first: almost every append is new.
    perform 1 from eventstore.events e where e.event_id = any(v_ids) limit 1;
    if found then
      update eventstore.streams set revision = v_current where stream_name = v_stream;
      select count(*), bool_and(e.stream_name = v_stream) and max(e.stream_revision - u.ord) = min(e.stream_revision - u.ord)
        into v_found, v_same_append
        from unnest(v_ids) with ordinality as u(id, ord)
        join eventstore.events e on e.event_id = u.id;
      if v_found = v_count and v_same_append then
        outcome := 'retried';
        select e.stream_revision, e.transaction_id, e.position into last_revision, commit_position, prepare_position
          from eventstore.events e where e.event_id = v_ids[v_count];
      else
        outcome := 'idempotency_conflict';
      end if;
      return next;
      continue;
    end if;

    v_expected_ok := case p_expected[append_index]
      when 'any' then true
      when 'no_stream' then v_current = -1
      when 'stream_exists' then v_current >= 0
      else v_current = p_expected[append_index]::bigint
    end;
    if not v_expected_ok then
      update eventstore.streams set revision = v_current where stream_name = v_stream;
      outcome := 'wrong_expected_revision';
      return next;
      continue;
    end if;

    insert into eventstore.events (event_id, stream_name, stream_revision, type, data, metadata)
      select p_ids[i], v_stream, v_current + 1 + i - v_first, p_types[i], p_data -> (i - 1), p_metadata -> (i - 1)
      from generate_series(v_first, v_first + v_count - 1) as i
      order by i;
    -- The last position this session drew is that of the append's last event.
    prepare_position := currval('eventstore.events_position_seq');
    commit_position := pg_current_xact_id();
    last_revision := v_current + v_count;
    outcome := 'appended';
    return next;
  end loop;
  perform pg_notify('eventstore_appended', '');
end;
$fn$;
`;

const migrations: Record<string, Migration> = {
  '001_events': {
    up: async (db) => {
      await sql.raw(createTables).execute(db);
      await sql.raw(createAppendEvents).execute(db);
    },
  },
};

/** Creates or upgrades the `eventstore` schema. Safe to run concurrently and repeatedly. */
export async function migrateEventStore(pool: Pool): Promise<void> {
  // Not destroyed: that would end the caller's pool.
  await migrate(createKysely(pool), 'eventstore', migrations);
}
