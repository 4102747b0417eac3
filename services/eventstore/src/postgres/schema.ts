import { createKysely, migrate, type Pool } from '@eelarve/postgres';
import { type Migration, sql } from 'kysely';
import { lockStreamsSql } from './sql';

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
 * The first append_events, as migration 001 made it (002 replaces it with a set-based one).
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

/**
 * Streams get a number, and events name their stream by it: the unique (stream, revision) index
 * was keyed by the whole stream name, wide and scattered (names end in a uuid), while a new
 * stream's number is the highest yet, so its events go to the right edge of a narrow index.
 * Existing events are numbered in place; their positions do not change.
 */
const numberStreams = `
alter table eventstore.streams add column stream_id bigint generated always as identity;
alter table eventstore.streams add constraint streams_stream_id_key unique (stream_id);
alter table eventstore.events add column stream_id bigint;
update eventstore.events e set stream_id = s.stream_id from eventstore.streams s where s.stream_name = e.stream_name;
alter table eventstore.events alter column stream_id set not null;
alter table eventstore.events add constraint events_stream_id_stream_revision_key unique (stream_id, stream_revision);
alter table eventstore.events drop constraint events_stream_name_stream_revision_key;
`;

/**
 * The statement of append_events that inserts the appended events and reports, per append, how
 * many went in and the position of its last one (v_inserted, v_last_positions, v_short: some
 * append is missing rows). `onConflict` is empty or skips stored event ids.
 */
function insertEvents(onConflict: string): string {
  return `
  with appends as (
    select a.stream_id, a.name, a.current, a.before, a.count
    from (
      select a.*, sum(a.count) over (order by a.ord) - a.count as before
      from unnest(v_stream_ids, p_streams, v_current, p_counts, v_outcomes) with ordinality as a(stream_id, name, current, count, outcome, ord)
    ) a
    where a.outcome = 'appended'
  ), owners as (
    -- The group's event n belongs to the append whose range holds it.
    select a.stream_id, a.name, a.current, a.before, generate_series(a.before + 1, a.before + a.count) as n from appends a
  ), inserted as (
    insert into eventstore.events (event_id, stream_id, stream_name, stream_revision, type, data, metadata)
    select u.id, o.stream_id, o.name, o.current + u.n - o.before, u.type, u.data, u.metadata
    from rows from (unnest(p_ids), unnest(p_types), jsonb_array_elements(p_data), jsonb_array_elements(p_metadata))
      with ordinality as u(id, type, data, metadata, n)
    join owners o on o.n = u.n
    -- Positions are drawn in this order, so a stream's revisions follow the global order.
    order by u.n
    ${onConflict}
    returning stream_id, position
  ), per_stream as (
    select i.stream_id, count(*) as inserted, max(i.position) as position from inserted i group by i.stream_id
  )
  select array_agg(coalesce(p.inserted, 0) order by a.ord), array_agg(p.position order by a.ord),
    bool_or(a.outcome = 'appended' and coalesce(p.inserted, 0) <> a.count)
    into v_inserted, v_last_positions, v_short
    from unnest(v_stream_ids, v_outcomes, p_counts) with ordinality as a(stream_id, outcome, count, ord)
    left join per_stream p on p.stream_id = a.stream_id;
`;
}

/**
 * append_events, set-based: a handful of statements per group of appends, whatever its size,
 * instead of three per append; the events go in with one INSERT ... SELECT over the arrays.
 * Append i puts the next p_counts[i] events of the arrays (ids and types as arrays; data and
 * metadata as JSON arrays, which cost the client no escaping) into p_streams[i], all or nothing.
 *
 * Each append reports its outcome instead of raising, so that the appends of a group stay
 * independent: 'appended'; 'retried' (these event ids were appended before: the original
 * result); 'wrong_expected_revision' or 'idempotency_conflict' (the ids belong to another
 * append), where last_revision is the stream's revision (-1: no stream).
 *
 * A group names each stream once (the client groups so): claiming one stream twice in one
 * statement is an error, after which the client sends the appends one by one. Streams are
 * locked in name order, so concurrent groups cannot deadlock on each other. Listeners of
 * eventstore_appended hear of the commit, once per group: NOTIFY holds a cluster-wide lock
 * through the commit, so one per append would serialise the appends.
 */
const createSetBasedAppendEvents = `
drop function eventstore.append_events(text[], text[], int[], int[], uuid[], text[], jsonb, jsonb);

-- The outcomes of the appends marked p_which, from the events stored with their ids: 'retried'
-- when all of them are stored, in the append's stream and order (the append went through
-- before), 'idempotency_conflict' when only some or elsewhere, and otherwise p_which's own
-- answer (none stored: 'wrong_expected_revision' stays; 'partly_stored', ids repeated within
-- the group, is a conflict). A statement of its own: its snapshot, taken once the stream locks
-- are held, sees the events of a concurrent append the caller waited for.
create function eventstore.stored_outcomes(p_streams text[], p_counts int[], p_ids uuid[], p_outcomes text[], p_which text)
returns text[]
language sql
set plan_cache_mode = force_generic_plan
set enable_seqscan = off
as $sql$
  with appends as (
    select a.ord, a.name, a.count, a.outcome, sum(a.count) over (order by a.ord) - a.count as before
    from unnest(p_streams, p_counts, p_outcomes) with ordinality as a(name, count, outcome, ord)
  ), stored as (
    select a.ord, count(*) as found,
      bool_and(e.stream_name = a.name) and max(e.stream_revision - u.n) = min(e.stream_revision - u.n) as same_append
    from appends a
    cross join lateral unnest(p_ids[a.before + 1 : a.before + a.count]) with ordinality as u(id, n)
    join eventstore.events e on e.event_id = u.id
    where a.outcome = p_which
    group by a.ord
  )
  select array_agg(case
      when a.outcome <> p_which then a.outcome
      when s.found = a.count and s.same_append then 'retried'
      when s.found is not null or a.outcome = 'partly_stored' then 'idempotency_conflict'
      else a.outcome
    end order by a.ord)
  from appends a left join stored s on s.ord = a.ord
$sql$;

${appendEventsFunction('create', '')}`;

/**
 * The set-based append_events; `lockStreams` runs before its first write (002 had nothing
 * there, 004 adds lockStreamsSql's stream locks).
 */
function appendEventsFunction(create: 'create' | 'create or replace', lockStreams: string): string {
  return `${create} function eventstore.append_events(
  p_streams text[], p_expected text[], p_counts int[],
  p_ids uuid[], p_types text[], p_data jsonb, p_metadata jsonb)
returns table (append_index int, outcome text, last_revision bigint, commit_position xid8, prepare_position bigint)
-- Its statements look rows up by key, so one generic plan each is right, and planning them
-- anew per call costs more than running them. A sequential scan is never right either, but a
-- plan made while the tables were small would keep scanning them as they grow.
language plpgsql
set plan_cache_mode = force_generic_plan
set enable_seqscan = off
as $fn$
declare
  v_stream_ids bigint[];
  v_current bigint[];
  v_outcomes text[];
  v_inserted bigint[];
  v_last_positions bigint[];
  v_short boolean;
begin
${lockStreams}  -- Claims the revisions of every append in one statement, creating streams as needed, and
  -- lets in the appends whose expected revision holds. The row locks serialise each stream's
  -- writers; an append refused below gives them back. One whose ids are stored already (a
  -- retry) may still answer as the original did, so those refused are checked for that.
  with claimed as (
    insert into eventstore.streams as s (stream_name, revision)
    select a.name, a.count - 1 from unnest(p_streams, p_counts) as a(name, count) order by a.name
    on conflict (stream_name) do update set revision = s.revision + excluded.revision + 1
    returning s.stream_name, s.stream_id, s.revision
  ), appends as (
    select a.ord, a.expected, c.stream_id, c.revision - a.count as current
    from unnest(p_streams, p_counts, p_expected) with ordinality as a(name, count, expected, ord)
    join claimed c on c.stream_name = a.name
  )
  select array_agg(a.stream_id order by a.ord), array_agg(a.current order by a.ord),
    array_agg(case
      when case a.expected
        when 'any' then true
        when 'no_stream' then a.current = -1
        when 'stream_exists' then a.current >= 0
        else a.current = a.expected::bigint
      end then 'appended'
      else 'wrong_expected_revision'
    end order by a.ord)
    into v_stream_ids, v_current, v_outcomes
    from appends a;
  if not (v_outcomes <@ array['appended']) then
    v_outcomes := eventstore.stored_outcomes(p_streams, p_counts, p_ids, v_outcomes, 'wrong_expected_revision');
  end if;

  -- The events, in one statement. Almost always none of their ids is stored, so a plain insert
  -- goes first (its block is a subtransaction, per call, not per event); if the unique index
  -- on event_id finds one stored before (a retry, or a reuse), that is undone and the insert
  -- runs again skipping such ids, and an append missing rows is undone below. Checking the
  -- ids beforehand, or skipping them always, would cost a second lookup of each.
  begin
${insertEvents('')}  exception when unique_violation then
${insertEvents('on conflict (event_id) do nothing')}  end;

  if v_short then
    -- Rare: appends that found some of their ids stored. Their rows are taken out again (the
    -- stream locks keep their revisions ours), then they answer as retries or conflicts.
    delete from eventstore.events e
      using unnest(v_stream_ids, v_current, v_outcomes, v_inserted, p_counts) as a(stream_id, current, outcome, inserted, count)
      where a.outcome = 'appended' and a.inserted <> a.count and e.stream_id = a.stream_id and e.stream_revision > a.current;
    select array_agg(case when a.outcome = 'appended' and a.inserted <> a.count then 'partly_stored' else a.outcome end order by a.ord)
      into v_outcomes
      from unnest(v_outcomes, v_inserted, p_counts) with ordinality as a(outcome, inserted, count, ord);
    v_outcomes := eventstore.stored_outcomes(p_streams, p_counts, p_ids, v_outcomes, 'partly_stored');
  end if;

  if not (v_outcomes <@ array['appended']) then
    update eventstore.streams s set revision = a.current
      from unnest(p_streams, v_current, v_outcomes) as a(name, current, outcome)
      where s.stream_name = a.name and a.outcome <> 'appended';
  end if;

  return query
  select a.ord::int, a.outcome,
    case a.outcome when 'appended' then a.current + a.count when 'retried' then r.stream_revision else a.current end,
    case a.outcome when 'appended' then pg_current_xact_id() when 'retried' then r.transaction_id end,
    case a.outcome when 'appended' then a.last_position when 'retried' then r.position end
  from (
    select a.*, sum(a.count) over (order by a.ord) as last
    from unnest(v_outcomes, v_current, p_counts, v_last_positions) with ordinality as a(outcome, current, count, last_position, ord)
  ) a
  left join lateral (
    select e.stream_revision, e.transaction_id, e.position from eventstore.events e
    where a.outcome = 'retried' and e.event_id = p_ids[a.last]
  ) r on true
  order by a.ord;

  perform pg_notify('eventstore_appended', '');
end;
$fn$;
`;
}

/**
 * The store's usual append is one plain statement (FAST_APPEND_SQL) that assumes every append
 * of the group goes through; this ends it when one does not, undoing the whole statement, and
 * the client then sends the group through append_events, which answers each append on its own.
 */
const createRefuseGroup = `
create function eventstore.refuse_group() returns text
language plpgsql
as $fn$
begin
  raise exception 'an append of the group needs append_events' using errcode = 'EV001';
end;
$fn$;
`;

/**
 * append_events as 002 made it, with the streams locked before its first write, as the plain
 * statement locks them (lockStreamsSql says why).
 */
const lockStreamsInAppendEvents = appendEventsFunction(
  'create or replace',
  `  -- Every lock before the first write: see lockStreamsSql in sql.ts.
  perform count(*) from (${lockStreamsSql('p_streams')}) l;

`,
);

/**
 * append_events answers a stale expected revision before it locks anything (migration 005). The
 * locking body of 004 goes on as eventstore.append_locked, for the appends still in the running;
 * the new append_events in front of it reads the streams' committed revisions without a lock, and
 * an append whose expected revision they contradict is answered at once: 'wrong_expected_revision'
 * with that revision, or, when its event ids are stored already, as a retry or conflict
 * (stored_outcomes; a stream's revision only moves with committed events, so the ids of an
 * append that moved it are visible to this later statement). Before, such an append waited for
 * the stream's lock and for the winner's commit only to find its revision stale; 20 writers of
 * one stream queued behind each other that way. The text is written out here, not built from
 * sql.ts, so that it stays as shipped whatever the live statements become; `holds` is the SQL
 * case that tells, from the committed revision s.revision (null: no row), whether an append's
 * expectation a.expected holds (005 and 006 differ only there).
 */
function appendEventsBeforeLocks(create: 'create' | 'create or replace', holds: string): string {
  return `${create} function eventstore.append_events(
  p_streams text[], p_expected text[], p_counts int[],
  p_ids uuid[], p_types text[], p_data jsonb, p_metadata jsonb)
returns table (append_index int, outcome text, last_revision bigint, commit_position xid8, prepare_position bigint)
language plpgsql
set plan_cache_mode = force_generic_plan
set enable_seqscan = off
as $fn$
declare
  v_committed bigint[];
  v_outcomes text[];
  v_kept bigint[];
  v_streams text[];
  v_expected text[];
  v_counts int[];
  v_ids uuid[];
  v_types text[];
  v_data jsonb;
  v_metadata jsonb;
begin
  select array_agg(coalesce(s.revision, -1) order by a.ord),
    array_agg(case when ${holds} then 'running' else 'wrong_expected_revision' end order by a.ord)
    into v_committed, v_outcomes
    from unnest(p_streams, p_expected) with ordinality as a(name, expected, ord)
    left join eventstore.streams s on s.stream_name = a.name;
  if v_outcomes <@ array['running'] then
    return query select * from eventstore.append_locked(p_streams, p_expected, p_counts, p_ids, p_types, p_data, p_metadata);
    return;
  end if;
  v_outcomes := eventstore.stored_outcomes(p_streams, p_counts, p_ids, v_outcomes, 'wrong_expected_revision');

  -- The appends still running, and their events, go through the locking body together.
  with appends as (
    select a.*, sum(a.count) over (order by a.ord) - a.count as before
    from unnest(p_streams, p_expected, p_counts, v_outcomes) with ordinality as a(name, expected, count, outcome, ord)
  )
  select array_agg(a.ord order by a.ord), array_agg(a.name order by a.ord), array_agg(a.expected order by a.ord), array_agg(a.count order by a.ord)
    into v_kept, v_streams, v_expected, v_counts
    from appends a where a.outcome = 'running';
  if v_kept is not null then
    with appends as (
      select a.ord, a.count, a.outcome, sum(a.count) over (order by a.ord) - a.count as before
      from unnest(p_counts, v_outcomes) with ordinality as a(count, outcome, ord)
    )
    select array_agg(u.id order by u.n), array_agg(u.type order by u.n), jsonb_agg(u.data order by u.n), jsonb_agg(u.metadata order by u.n)
      into v_ids, v_types, v_data, v_metadata
      from appends a
      join rows from (unnest(p_ids), unnest(p_types), jsonb_array_elements(p_data), jsonb_array_elements(p_metadata))
        with ordinality as u(id, type, data, metadata, n) on u.n > a.before and u.n <= a.before + a.count
      where a.outcome = 'running';
    return query
    select v_kept[l.append_index]::int, l.outcome, l.last_revision, l.commit_position, l.prepare_position
    from eventstore.append_locked(v_streams, v_expected, v_counts, v_ids, v_types, v_data, v_metadata) l;
  end if;

  return query
  select a.ord::int, a.outcome,
    case a.outcome when 'retried' then r.stream_revision else a.committed end,
    r.transaction_id, r.position
  from (
    select a.*, sum(a.count) over (order by a.ord) as last
    from unnest(v_outcomes, v_committed, p_counts) with ordinality as a(outcome, committed, count, ord)
  ) a
  left join lateral (
    select e.stream_revision, e.transaction_id, e.position from eventstore.events e
    where a.outcome = 'retried' and e.event_id = p_ids[a.last]
  ) r on true
  where a.outcome <> 'running'
  order by a.ord;
end;
$fn$;
`;
}

/** Migration 005 as shipped: a stream row, whatever its revision, counts as an existing stream. */
const refuseStaleBeforeLocks = `
alter function eventstore.append_events(text[], text[], int[], uuid[], text[], jsonb, jsonb) rename to append_locked;

${appendEventsBeforeLocks(
  'create',
  `case a.expected
        when 'any' then true
        when 'no_stream' then s.revision is null
        when 'stream_exists' then s.revision is not null
        else s.revision = a.expected::bigint
      end`,
)}`;

/**
 * Migration 006: a stream row at revision -1 is no stream. Such rows exist: each refused first
 * append under 002-004 left one, and an idempotency conflict still does (append_locked gives the
 * claimed revisions back, to -1). 005 took them for existing streams, so a valid 'no_stream'
 * append to one was refused, with actual -1, whenever it went through append_events (the plain
 * statement accepted it). Now the rule is that of expectationHolds in sql.ts and of append_locked.
 */
const noStreamAtRevisionMinusOne = appendEventsBeforeLocks(
  'create or replace',
  `case a.expected
        when 'any' then true
        when 'no_stream' then coalesce(s.revision, -1) = -1
        when 'stream_exists' then coalesce(s.revision, -1) >= 0
        else coalesce(s.revision, -1) = a.expected::bigint
      end`,
);

/**
 * Migration 007: data and metadata as json, kept uncompressed. The log only stores and returns
 * them, never looks inside: jsonb parsed every event into its binary form on the way in and made
 * text of it again on every read, and pglz compressed each big one (an import's chunk of 500
 * records, some 150 KB) on the way in and decompressed it for every projector that read it. For
 * 200 such events (30 MB), measured on one connection: COPY in 442 ms against 1,971, a full read
 * as text 120 against 217 ms, for twice the disk (32 against 18 MB). Both columns are written by
 * JSON.stringify; eventPayloads refuses the characters jsonb refused and json would keep.
 */
const eventsAsJsonText = `
alter table eventstore.events
  alter column data type json using data::json,
  alter column metadata type json using metadata::json;
alter table eventstore.events
  alter column data set storage external,
  alter column metadata set storage external;
`;

/** Exported for the upgrade test, which builds a store as an earlier version left it. */
export const migrations: Record<string, Migration> = {
  '001_events': {
    up: async (db) => {
      await sql.raw(createTables).execute(db);
      await sql.raw(createAppendEvents).execute(db);
    },
  },
  '002_numbered_streams_set_based_append': {
    up: async (db) => {
      await sql.raw(numberStreams).execute(db);
      await sql.raw(createSetBasedAppendEvents).execute(db);
    },
  },
  '003_one_statement_append': {
    up: async (db) => {
      await sql.raw(createRefuseGroup).execute(db);
    },
  },
  '004_stream_locks_before_writes': {
    up: async (db) => {
      await sql.raw(lockStreamsInAppendEvents).execute(db);
    },
  },
  '005_stale_revisions_before_locks': {
    up: async (db) => {
      await sql.raw(refuseStaleBeforeLocks).execute(db);
    },
  },
  '006_no_stream_at_revision_minus_one': {
    up: async (db) => {
      await sql.raw(noStreamAtRevisionMinusOne).execute(db);
    },
  },
  '007_events_as_json_text': {
    up: async (db) => {
      await sql.raw(eventsAsJsonText).execute(db);
    },
  },
};

/** Creates or upgrades the `eventstore` schema. Safe to run concurrently and repeatedly. */
export async function migrateEventStore(pool: Pool): Promise<void> {
  // Not destroyed: that would end the caller's pool.
  await migrate(createKysely(pool), 'eventstore', migrations);
}
