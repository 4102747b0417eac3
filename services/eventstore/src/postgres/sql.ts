import { escapeLiteral } from 'pg';
import type { ExpectedRevision, GlobalPosition, NewEvent } from '../types';

/**
 * Statements of the PostgreSQL store. Each is prepared once per connection (by name), and
 * arrays carry the values of many events, so a 10,000-event append is still seven parameters.
 */

export const APPEND_SQL = `
select append_index, outcome, last_revision, commit_position::text as commit_position, prepare_position
from eventstore.append_events($1::text[], $2::text[], $3::int[], $4::uuid[], $5::text[], $6::jsonb, $7::jsonb)`;

/** The channel every append notifies (append_events, the plain statement, COPY) after each group of appends. */
export const NOTIFY_CHANNEL = 'eventstore_appended';

/** SQL: the notification, true once queued; once per group, as NOTIFY holds a cluster-wide lock through the commit. */
const NOTIFY_APPENDED = `pg_notify('${NOTIFY_CHANNEL}', '') is null`;

/** SQL: whether the statement's `locked` part (tryLockStreamsSql) took every lock. */
const ALL_LOCKED = '(select l.all_locked from locked l)';

/** Seeds the hash of a stream's lock key. */
const STREAM_LOCK_SEED = 1702;

/**
 * Takes a transaction-level advisory lock on each stream named in the text array `names`, in
 * the order of their keys (every writer locks in that one order, and takes them all before it
 * waits on anything else, so writers cannot deadlock on them). It must come before the
 * append's first write: $all is ordered by transaction id, and a transaction gets its id at
 * its first write. Without it, a group that wrote stream A and then waited on stream B's row
 * lock kept an id older than the writer it waited for, and $all showed B's later revision
 * first. An advisory lock assigns no id, so with it a group gets its id once every earlier
 * writer of its streams has committed (ids only grow), and later writers wait for its commit.
 * A group of one stream locks too, though its own first write already waits for the stream's
 * earlier writers: otherwise it could take a stream that a locked group has not reached yet.
 * The seed keeps these keys apart from the gateway's named locks (hashtextextended(name, 0));
 * two streams sharing a key only wait for each other. Each lock is a slot of the server's lock
 * table (max_locks_per_transaction per connection, shared) until the commit; the batcher's
 * groups hold at most GROUP_EVENTS streams.
 */
export function lockStreamsSql(names: string): string {
  return `select pg_advisory_xact_lock(k.key)
    from (select distinct ${streamLockKey('n.name')} as key from unnest(${names}) as n(name) order by key) k`;
}

/**
 * lockStreamsSql's locks, each tried without waiting: one row, `all_locked`, true when every
 * lock was free (and is now held), false when another transaction holds one (the rest taken
 * are let go at the end of the transaction, which writes nothing then). A try never waits, so
 * the order does not matter, and a group names each stream once (the batcher sees to it): two
 * streams sharing a key take it twice, which a transaction may.
 */
export function tryLockStreamsSql(names: string): string {
  return `select bool_and(pg_try_advisory_xact_lock(${streamLockKey('n.name')})) as all_locked from unnest(${names}) as n(name)`;
}

/** The advisory lock key of the stream named by the SQL expression `name`. */
function streamLockKey(name: string): string {
  return `hashtextextended(${name}, ${STREAM_LOCK_SEED})`;
}

/** SQL: whether an append's `expected` revision holds for its stream at revision `current` (-1: no stream). */
function expectationHolds(expected: string, current: string): string {
  return `case ${expected}
      when 'any' then true
      when 'no_stream' then ${current} = -1
      when 'stream_exists' then ${current} >= 0
      else ${current} = ${expected}::bigint
    end`;
}

/** The group's appends, numbered from 1, each with the number of events before its own. */
const GROUP_APPENDS = 'unnest($1::text[], $2::text[], $3::int[], $9::int[]) with ordinality as a(name, expected, count, before, ord)';

/** Expectations that need the stream to exist (a number or stream_exists); the others may create it. */
const NEEDS_STREAM = "a.expected not in ('no_stream', 'any')";

/** A claim's columns: the append, its stream, the stream's revision before it, and whether its expectation holds. */
function claimColumns(revisionAfter: string, holds = expectationHolds('a.expected', `(${revisionAfter} - a.count)`)): string {
  return `a.ord, a.name, a.count, a.before, s.stream_id, ${revisionAfter} - a.count as current, ${holds} as holds`;
}

/**
 * The usual append of a group, as one plain statement with the parameters of APPEND_SQL, each
 * event's append by number, and each append's number of events before its own (appendAllValues). It
 * claims every stream's revisions, inserts all the events and notifies listeners, with no
 * function call, block or subtransaction around it, which cost the server as much again as the
 * inserts themselves. It comes in three forms (APPEND_ALL), and a fourth for groups of
 * one-event appends to existing streams (APPEND_ONE_EACH_SQL): appends to streams that must
 * exist claim them by a plain update (an upsert costs a lookup and a row lock more), those that
 * may create their stream by an upsert, and a group with only one kind leaves the other's part
 * out (an empty part still cost the server 30 µs a group, a thirtieth of the whole).
 *
 * It only knows how to succeed, and never waits for a writer of its streams:
 * - It first tries each stream's lock (lockStreamsSql says why the locks come before any
 *   write). When another transaction holds one, the group is busy: the statement writes
 *   nothing, answers a row with a null commit_position, and the client sends the group
 *   through append_events, which answers a stale append before it waits for any lock.
 * - If a stream that must exist does not, or an expected revision does not hold, once the
 *   locks are held, eventstore.refuse_group() raises EV001, and an event id stored before (a
 *   retry, or a reuse) breaks the unique index; either undoes the whole statement, and the
 *   group then goes through append_events, which answers each append on its own. A stale
 *   append to an existing stream claims nothing, so a group of one such append (a writer that
 *   lost a race) writes nothing before it is refused.
 * A stale append thus costs a second round trip, where checking every expected revision
 * against the streams' committed revisions before the locks (as this statement did) cost every
 * append a lookup more.
 *
 * One row answers for the whole group (AllAppendedRow): each append's last revision and every
 * event's position, as array texts in order.
 */
function appendAllSql(claims: { existing: boolean; created: boolean }): string {
  const parts = [
    claims.existing &&
      `existing as (
  -- Only a stream whose expectation holds: a stale append writes nothing (an undone claim is a
  -- dead row version that later readers step over), and the group is refused below.
  update eventstore.streams s set revision = s.revision + a.count
  from ${GROUP_APPENDS}
  where ${NEEDS_STREAM} and s.stream_name = a.name and ${expectationHolds('a.expected', 's.revision')}
    and ${ALL_LOCKED}
  returning ${claimColumns('s.revision', 'true')}
)`,
    claims.created &&
      `created as (
  insert into eventstore.streams as s (stream_name, revision)
  select a.name, a.count - 1 from ${GROUP_APPENDS}
  where not ${NEEDS_STREAM} and ${ALL_LOCKED}
  order by a.name
  on conflict (stream_name) do update set revision = s.revision + excluded.revision + 1
  returning s.stream_name, s.stream_id, s.revision
), created_claims as (
  select ${claimColumns('s.revision')}
  from ${GROUP_APPENDS} join created s on s.stream_name = a.name
)`,
  ].filter(Boolean);
  const claimed = claims.existing && claims.created ? 'existing union all select * from created_claims' : claims.existing ? 'existing' : 'created_claims';
  return `
with locked as (
  ${tryLockStreamsSql('$1::text[]')}
), ${parts.join(', ')}, claimed as (
  select * from ${claimed}
), inserted as (
  -- Event n belongs to append $8[n], as the client numbered them: one hash join, where
  -- finding each append's range of events took a generate_series and a join per append.
  insert into eventstore.events (event_id, stream_id, stream_name, stream_revision, type, data, metadata)
  select u.id, c.stream_id, c.name, c.current + u.n - c.before, u.type, u.data, u.metadata
  from rows from (unnest($4::uuid[]), unnest($5::text[]), json_array_elements($6::json), json_array_elements($7::json), unnest($8::int[]))
    with ordinality as u(id, type, data, metadata, ord, n)
  join claimed c on c.ord = u.ord
  -- Positions are drawn in this order, so a stream's revisions follow the global order.
  order by u.n
  returning position
)
select
  case
    when not ${ALL_LOCKED} then null
    -- Every append claimed its stream, and its expectation holds.
    when count(*) = cardinality($1::text[]) and bool_and(c.holds) then pg_current_xact_id()::text
    else eventstore.refuse_group()
  end as commit_position,
  array_agg(c.current + c.count order by c.ord)::text as last_revisions,
  -- Drawn in event order, so sorted they are the events' positions in order: the client picks
  -- each append's last, which spares the server grouping them by stream and joining back.
  (select array_agg(i.position order by i.position) from inserted i)::text as positions,
  -- Once per group: NOTIFY holds a cluster-wide lock through the commit.
  case when ${ALL_LOCKED} then ${NOTIFY_APPENDED} end as notified
from claimed c`;
}

/**
 * The plain statement for the commonest group: appends of one event each to streams that exist
 * (commands changing an aggregate). With one event to an append, the update that claims the
 * streams hands each event its stream and revision, and the insert takes the update's rows as
 * they come, with no second reading of the appends and no join (bench:eventstore (b), in turns
 * with the existing form on the same server: 13,763 against 12,471 events/s when the limit
 * measured the same). The answer is as the other forms' (AllAppendedRow), read from the
 * inserted rows. Parameters: appendOneEachValues.
 */
const APPEND_ONE_EACH_SQL = `
with locked as (
  ${tryLockStreamsSql('$1::text[]')}
), claimed as (
  update eventstore.streams s set revision = s.revision + 1
  from rows from (unnest($1::text[]), unnest($2::text[]), unnest($3::uuid[]), unnest($4::text[]), json_array_elements($5::json), json_array_elements($6::json))
    with ordinality as a(name, expected, id, type, data, metadata, ord)
  where s.stream_name = a.name and ${expectationHolds('a.expected', 's.revision')}
    and ${ALL_LOCKED}
  returning a.ord, s.stream_id, a.name, s.revision, a.id, a.type, a.data, a.metadata
), inserted as (
  insert into eventstore.events (event_id, stream_id, stream_name, stream_revision, type, data, metadata)
  select c.id, c.stream_id, c.name, c.revision, c.type, c.data, c.metadata from claimed c
  -- Positions are drawn in this order, the appends' own.
  order by c.ord
  returning position, stream_revision
)
select
  case
    when not ${ALL_LOCKED} then null
    when count(*) = cardinality($1::text[]) then pg_current_xact_id()::text
    else eventstore.refuse_group()
  end as commit_position,
  array_agg(i.stream_revision order by i.position)::text as last_revisions,
  array_agg(i.position order by i.position)::text as positions,
  case when ${ALL_LOCKED} then ${NOTIFY_APPENDED} end as notified
from inserted i`;

/** The plain statement's forms, each prepared under its own name. */
export const APPEND_ALL = {
  existing: { name: 'eventstore_append_existing', text: appendAllSql({ existing: true, created: false }) },
  created: { name: 'eventstore_append_created', text: appendAllSql({ existing: false, created: true }) },
  mixed: { name: 'eventstore_append_mixed', text: appendAllSql({ existing: true, created: true }) },
  oneEach: { name: 'eventstore_append_one_each', text: APPEND_ONE_EACH_SQL },
} as const;

export interface AppendQuery {
  name: string;
  text: string;
  values: unknown[];
}

/** The form of the plain statement for `appends`, with its parameters. */
export function appendAllQuery(appends: readonly AppendRequest[], payloads?: EventPayloads): AppendQuery {
  let existing = false;
  let created = false;
  let oneEach = true;
  for (const { expectedRevision, events } of appends) {
    if (expectedRevision === 'no_stream' || expectedRevision === 'any') created = true;
    else existing = true;
    if (events.length !== 1) oneEach = false;
  }
  if (oneEach && !created) return { ...APPEND_ALL.oneEach, values: appendOneEachValues(appends, payloads) };
  const form = existing && created ? APPEND_ALL.mixed : existing ? APPEND_ALL.existing : APPEND_ALL.created;
  return { ...form, values: appendAllValues(appends, payloads) };
}

/**
 * A big append (alone in its group, its events' data and metadata COPY_MIN_CHARS or more) goes
 * in by COPY in a transaction of its own: the plain statement parses the group's payloads as one
 * JSON array and copies each element out, which COPY does not. Measured on one connection, an
 * import's 200 events of 500 records each (20 MB) took 806 ms by COPY against 1,134 by the
 * plain statement, 10 such events 45 against 59 ms; below some 200 KB the four round trips
 * more cost as much as COPY saves, and 1,000 small events took 43 ms either way. The
 * transaction: begin; CLAIM_FOR_COPY (the stream's lock tried, as the plain statement does,
 * then its revisions claimed); COPY of copyEventRows; COPY_APPENDED (its position, and the
 * notification); commit. Anything but a clean claim (the stream busy, the expectation not
 * holding) or an event id stored before rolls it back, and the append goes through
 * append_events, as a refused group does.
 */
export const COPY_MIN_CHARS = 1_000_000;

/** $1 stream, $2 expected revision, $3 event count: whether the lock was free, and the stream's id and revision before. */
export const CLAIM_FOR_COPY = {
  name: 'eventstore_claim_for_copy',
  text: `
with locked as (
  select pg_try_advisory_xact_lock(${streamLockKey('$1::text')}) as all_locked
), claimed as (
  insert into eventstore.streams as s (stream_name, revision)
  select $1::text, $3::bigint - 1 where ${ALL_LOCKED}
  on conflict (stream_name) do update set revision = s.revision + excluded.revision + 1
  returning s.stream_id, s.revision - $3::bigint as current
)
select l.all_locked, c.stream_id, c.current::text as current, ${expectationHolds('$2::text', 'c.current')} as holds
from locked l left join claimed c on true`,
};

/** CLAIM_FOR_COPY's answer: a free lock and a holding expectation, or neither with the stream's numbers null. */
export interface CopyClaimRow {
  all_locked: boolean;
  stream_id: string | null;
  current: string | null;
  holds: boolean | null;
}

/** The COPY of a big append's events (its rows: copyEventRows). */
export const COPY_EVENTS_SQL = 'copy eventstore.events (event_id, stream_id, stream_name, stream_revision, type, data, metadata) from stdin';

/** After the COPY: the commit position, the last event's position (drawn last in this session), and the notification. */
export const COPY_APPENDED = {
  name: 'eventstore_copy_appended',
  text: `select pg_current_xact_id()::text as commit_position, currval('eventstore.events_position_seq')::text as prepare_position,
    ${NOTIFY_APPENDED} as notified`,
};

/** COPY's text rows of `append`'s events (their JSON in `payloads`), in stream `streamId` after revision `current`. */
export function copyEventRows(append: AppendRequest, payloads: EventPayloads, streamId: string, current: bigint): string {
  const stream = `\t${streamId}\t${copyText(append.stream)}\t`;
  let rows = '';
  append.events.forEach((event, index) => {
    const revision = current + BigInt(index + 1);
    rows += `${copyText(event.id)}${stream}${revision}\t${copyText(event.type)}\t${copyJson(payloads.data[index]!)}\t${copyJson(payloads.metadata[index]!)}\n`;
  });
  return rows;
}

/** Characters COPY's text format reads as escapes or separators. */
const COPY_SPECIAL = /[\\\t\n\r]/g;
const HAS_COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** `value` escaped for a field of COPY's text format. */
export function copyText(value: string): string {
  return HAS_COPY_SPECIAL.test(value) ? value.replace(COPY_SPECIAL, (char) => COPY_ESCAPES[char]!) : value;
}

/** JSON text has no raw tab, newline or return (JSON.stringify escapes them), only backslashes to double. */
function copyJson(text: string): string {
  return text.includes('\\') ? text.replaceAll('\\', '\\\\') : text;
}

/**
 * The plain statement's answer: int8 arrays as text ({1,2,3}), one element per append, and positions
 * one per event. A busy group (another transaction held a lock of its streams) has no
 * commit_position, and nothing of it was written.
 */
export interface AllAppendedRow {
  commit_position: string | null;
  last_revisions: string | null;
  positions: string | null;
}

/** SQLSTATE of eventstore.refuse_group(): some append of the group needs append_events. */
export const GROUP_REFUSED = 'EV001';

export interface AppendRequest {
  stream: string;
  events: readonly NewEvent[];
  expectedRevision: ExpectedRevision;
}

/**
 * Each event's data and metadata as JSON text, and their characters: made first for an append
 * alone in its group, whose size decides whether it goes by COPY, and used by either statement.
 * A group of several appends stringifies the arrays whole, a fifth cheaper than event by event.
 */
export interface EventPayloads {
  data: string[];
  metadata: string[];
  chars: number;
}

export function eventPayloads(events: readonly NewEvent[]): EventPayloads {
  const payloads: EventPayloads = { data: [], metadata: [], chars: 0 };
  for (const event of events) {
    const data = storableJson(event.data ?? null);
    const metadata = storableJson(event.metadata ?? null);
    payloads.data.push(data);
    payloads.metadata.push(metadata);
    payloads.chars += data.length + metadata.length;
  }
  return payloads;
}

/** append_events' parameters (APPEND_SQL): each append's stream, expectation and event count, then the events' columns. */
export function appendValues(appends: readonly AppendRequest[], payloads?: EventPayloads): unknown[] {
  const events = appends.length === 1 ? appends[0]!.events : appends.flatMap((append) => append.events);
  return [...streamColumns(appends), `{${appends.map((append) => append.events.length).join(',')}}`, ...eventColumns(events, payloads)];
}

/**
 * The plain statement's parameters: appendValues', each event's append by number (from 1), and
 * each append's number of events before its own.
 */
function appendAllValues(appends: readonly AppendRequest[], payloads: EventPayloads | undefined): unknown[] {
  const values = appendValues(appends, payloads);
  values.push(eventOrdinals(appends), eventsBefore(appends));
  return values;
}

/** APPEND_ALL.oneEach's parameters: appendValues' but the event counts (one each). */
function appendOneEachValues(appends: readonly AppendRequest[], payloads: EventPayloads | undefined): unknown[] {
  return [
    ...streamColumns(appends),
    ...eventColumns(
      appends.map((append) => append.events[0]!),
      payloads,
    ),
  ];
}

/** Each append's stream and expected revision, as arrays. */
function streamColumns(appends: readonly AppendRequest[]): unknown[] {
  return [
    arrayLiteral(appends.map((append) => append.stream)),
    // 'any', 'no_stream', 'stream_exists' or a number: nothing to quote, so no driver escaping.
    `{${appends.map((append) => append.expectedRevision).join(',')}}`,
  ];
}

/** Each event's id and type as arrays, and its data and metadata as JSON arrays (of `payloads`, when made already). */
function eventColumns(events: readonly NewEvent[], payloads: EventPayloads | undefined): unknown[] {
  return [
    arrayLiteral(events.map((event) => event.id)),
    arrayLiteral(events.map((event) => event.type)),
    payloads ? `[${payloads.data.join(',')}]` : storableJson(events.map((event) => event.data ?? null)),
    payloads ? `[${payloads.metadata.join(',')}]` : storableJson(events.map((event) => event.metadata ?? null)),
  ];
}

/**
 * JSON.stringify writes U+0000 and lone surrogates as \u escapes (and, of the rest, only other
 * control characters): an escape of either, after an even number of backslashes (so not the
 * text "\u0000" itself, whose backslash is escaped).
 */
const UNSTORABLE_ESCAPE = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

/**
 * `value` as JSON text, refused when it holds U+0000 or a lone surrogate: the events table keeps
 * the text as it comes (json), and a projector could not write either into a text column, so
 * such an event would stop it. The gateway refuses both at its edge; this keeps the log clean
 * of them whatever the writer.
 */
export function storableJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text.includes('\\u') && UNSTORABLE_ESCAPE.test(text)) {
    throw new RangeError('an event holds U+0000 or a lone surrogate, which no read model can store as text');
  }
  return text;
}

/** `{1,2,2,3}` for appends of one, two and one events. */
function eventOrdinals(appends: readonly AppendRequest[]): string {
  let text = '';
  appends.forEach((append, index) => {
    const ordinal = `,${index + 1}`;
    text += append.events.length === 1 ? ordinal : ordinal.repeat(append.events.length);
  });
  return `{${text.slice(1)}}`;
}

/** `{0,1,3}` for appends of one, two and one events. */
function eventsBefore(appends: readonly AppendRequest[]): string {
  let before = 0;
  let text = '';
  for (const append of appends) {
    text += `,${before}`;
    before += append.events.length;
  }
  return `{${text.slice(1)}}`;
}

/** Characters that never need quoting in an array literal (ids, event types and most stream names are made of them). */
const PLAIN_ELEMENT = /^[\w.:-]+$/;

/**
 * A PostgreSQL array literal of `values`, written directly when no value needs quoting: the
 * driver quotes and escapes every element of an array, which cost as much as the JSON of the
 * events. Anything else (and the word null, which would read as NULL) goes to the driver.
 */
function arrayLiteral(values: string[]): string | string[] {
  for (const value of values) if (!PLAIN_ELEMENT.test(value) || (value.length === 4 && value.toLowerCase() === 'null')) return values;
  return `{${values.join(',')}}`;
}

const EVENT_COLUMNS = `e.event_id, e.stream_name, e.stream_revision, e.type, e.created_at,
  e.transaction_id::text as commit_position, e.position as prepare_position`;

/** Events are indexed by their stream's number, $1 is its name. */
const STREAM_ID = 'select s.stream_id from eventstore.streams s where s.stream_name = $1';

/** Events of one stream from a revision on, oldest first: $1 stream, $2 from revision, $3 limit. */
export const READ_STREAM_FORWARDS_SQL = `
select ${EVENT_COLUMNS}, e.data, e.metadata from eventstore.events e
where e.stream_id = (${STREAM_ID}) and e.stream_revision >= $2
order by e.stream_revision limit $3`;

/** Events of one stream up to a revision, newest first. */
export const READ_STREAM_BACKWARDS_SQL = `
select ${EVENT_COLUMNS}, e.data, e.metadata from eventstore.events e
where e.stream_id = (${STREAM_ID}) and e.stream_revision <= $2
order by e.stream_revision desc limit $3`;

/** Events below the oldest running transaction, as they cannot gain a predecessor any more. */
const VISIBLE = 'e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())';

/**
 * A page of $all after `from`, at most `maxCount` rows, as binary COPY output (parseCopyPage
 * reads it): the server sends numbers, times and ids in their binary form, with no text
 * form of each made and parsed, and the client finds the fields by their lengths, with no
 * string per column of each row. COPY takes no parameters, so the values are written into the
 * text: positions and the count as numbers it has checked, event types as escaped literals.
 * With a type filter the rows of other types come without their data and metadata (NULL, which
 * the columns never are): they only move the page's end position on.
 */
export function readAllCopySql(from: GlobalPosition, maxCount: number, eventTypes: readonly string[] | undefined): string {
  if (!Number.isSafeInteger(maxCount) || maxCount < 1) throw new RangeError(`maxCount must be a positive integer, not ${maxCount}`);
  // xid8 has no negative values; every real transaction id is above 0.
  const commit = from.commit < 0n ? 0n : BigInt(from.commit);
  const prepare = BigInt(from.prepare);
  const wanted = eventTypes && (eventTypes.length === 0 ? 'false' : `e.type in (${eventTypes.map(escapeLiteral).join(', ')})`);
  const payload = wanted ? `case when ${wanted} then e.data end, case when ${wanted} then e.metadata end` : 'e.data, e.metadata';
  return `copy (
select e.transaction_id, e.position, e.stream_revision, e.created_at, e.event_id, e.stream_name, e.type, ${payload}
from eventstore.events e
where (e.transaction_id, e.position) > ('${commit}'::xid8, ${prepare}::bigint) and ${VISIBLE}
order by e.transaction_id, e.position
limit ${maxCount}) to stdout (format binary)`;
}

export const HEAD_POSITION_SQL = `
select e.transaction_id::text as commit_position, e.position as prepare_position
from eventstore.events e where ${VISIBLE}
order by e.transaction_id desc, e.position desc limit 1`;
