import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { NewEvent } from '../types';
import { copyText } from './sql';

/**
 * What PostgreSQL itself manages on the server the store runs on, for `pnpm bench:eventstore`
 * to print beside the store's figures: the same rows written by COPY or by plain multi-row
 * inserts into a copy of the events table (same columns, defaults and indexes), and the whole
 * log read by COPY out. The store cannot beat these; the bench says how close it comes.
 *
 * Each limit does the least that any store with the same guarantees must do, and no more:
 * - it is handed the events as objects, as the store is, and turns them into its wire text in
 *   the timed run (JSON of data and metadata, COPY's escaping): a store cannot skip that, and a
 *   limit whose text was made beforehand was one no store could reach;
 * - multi-row commits also advance each written stream's revision in the same statement (one
 *   UPDATE of the streams' rows by name): checking expected revisions needs each stream's
 *   current revision, read and moved on in the appending transaction, and bare inserts, which
 *   know nothing of streams, were a limit no store that checks them could reach. For COPY of a
 *   1,000-event batch that one row is noise, so it is left out there.
 * Durability is the server's own (fsync, synchronous_commit) for both, one commit per batch or
 * per group, one round trip each, as the store has.
 */
export class RawPostgresLimits {
  readonly #client: pg.Client;
  /** Columns the store fills itself (the rest have defaults), as the schema in force has them. */
  #columns: string[] = [];
  #streams = 0;

  private constructor(client: pg.Client) {
    this.#client = client;
  }

  /** Connects and makes an empty `eventstore_limit.events` shaped like `eventstore.events`. */
  static async open(connectionString: string): Promise<RawPostgresLimits> {
    const client = new pg.Client({ connectionString });
    await client.connect();
    const limits = new RawPostgresLimits(client);
    await limits.reset();
    return limits;
  }

  /** Empties the copy of the events table, so each limit starts as the store's figure did. */
  async reset(): Promise<void> {
    await this.#client.query(`
      create schema if not exists eventstore_limit;
      drop table if exists eventstore_limit.events;
      create table eventstore_limit.events (like eventstore.events including all);
      drop table if exists eventstore_limit.streams;
      create table eventstore_limit.streams (like eventstore.streams including all);`);
    const { rows } = await this.#client.query<{ column_name: string }>(`
      select column_name from information_schema.columns
      where table_schema = 'eventstore' and table_name = 'events' and column_default is null and is_identity = 'NO'
      order by ordinal_position`);
    this.#columns = rows.map((row) => row.column_name);
  }

  /**
   * One COPY (and commit) per batch: the limit for one writer's batch appends. The returned
   * function makes each batch's COPY text from its events and sends it.
   */
  prepareCopyBatches(batches: ReadonlyArray<readonly NewEvent[]>): () => Promise<number> {
    const streams = batches.map(() => this.#newStream());
    const text = `copy eventstore_limit.events (${this.#columns.join(', ')}) from stdin`;
    return async () => {
      for (const [batchIndex, batch] of batches.entries()) {
        const rows = batch.map((event, index) => copyLine(this.#values(event, streams[batchIndex]!, index))).join('');
        const copy = this.#client.query(copyFrom(text));
        copy.end(rows);
        await once(copy, 'finish');
      }
      return batches.reduce((events, batch) => events + batch.length, 0);
    };
  }

  /**
   * `commits` multi-row inserts of `writers` rows each, one after another, each also moving the
   * writers' stream revisions on: the limit for that many writers appending one event each,
   * whose appends the store commits together. The events are made here; the returned function
   * creates the streams (as the store's first appends do), then makes each commit's values
   * from its events and sends them.
   */
  prepareMultiRowCommits(writers: number, commits: number, event: (index: number) => NewEvent): () => Promise<number> {
    const streams = Array.from({ length: writers }, () => this.#newStream());
    const names = streams.map((stream) => stream.name);
    const width = this.#columns.length;
    const rows = Array.from({ length: writers }, (_, row) => `(${this.#columns.map((_, column) => `$${row * width + column + 2}`).join(', ')})`);
    const text = `with claimed as (update eventstore_limit.streams s set revision = s.revision + 1 where s.stream_name = any($1::text[]))
      insert into eventstore_limit.events (${this.#columns.join(', ')}) values ${rows.join(', ')}`;
    const events = Array.from({ length: commits }, (_, commit) => streams.map(() => event(commit)));
    return async () => {
      await this.#client.query('insert into eventstore_limit.streams (stream_name, revision) select unnest($1::text[]), -1', [names]);
      for (const [commit, commitEvents] of events.entries()) {
        const values = [names, ...commitEvents.flatMap((commitEvent, writer) => this.#values(commitEvent, streams[writer]!, commit))];
        await this.#client.query({ name: 'limit_multi_row', text, values });
      }
      return writers * commits;
    };
  }

  /**
   * COPY out of the whole store's log in its global order: the limit for readAll. In text format
   * the client counts lines; in binary format (numbers, times and ids in their binary form,
   * which costs the server less to send) it counts rows by stepping over each field's length.
   */
  async copyOutAll(format: 'text' | 'binary'): Promise<number> {
    const out = this.#client.query(
      copyTo(`copy (select event_id, stream_name, stream_revision, type, data, metadata, created_at, transaction_id, position
        from eventstore.events order by transaction_id, position) to stdout (format ${format})`),
    );
    let rows = 0;
    const count = format === 'text' ? countLines : countBinaryRows();
    await pipeline(out, async (chunks: AsyncIterable<Buffer>) => {
      for await (const chunk of chunks) rows += count(chunk);
    });
    return rows;
  }

  /**
   * Leaves the server as settled for the next timed run as for the one before: the rows written
   * so far vacuumed (hint bits and visibility map set, so no autovacuum starts mid-run and no
   * reader pays for setting them) and their pages flushed by a checkpoint (so none starts
   * mid-run). Either would otherwise land on whichever run came next, store or limit. A role
   * that may not checkpoint (PG 15+: pg_checkpoint) only vacuums; the returned text says so.
   */
  async settle(): Promise<string | null> {
    await this.#client.query('vacuum (analyze) eventstore.events, eventstore.streams, eventstore_limit.events, eventstore_limit.streams');
    try {
      await this.#client.query('checkpoint');
      return null;
    } catch (error) {
      return `no checkpoint between runs: ${(error as Error).message}`;
    }
  }

  async close(): Promise<void> {
    await this.#client.query('drop schema if exists eventstore_limit cascade');
    await this.#client.end();
  }

  #newStream(): { name: string; id: number } {
    this.#streams += 1;
    return { name: `limit-${this.#streams}-${crypto.randomUUID()}`, id: this.#streams };
  }

  /** The row the store would write for `event`, column by column. */
  #values(event: NewEvent, stream: { name: string; id: number }, revision: number): unknown[] {
    const byColumn: Record<string, unknown> = {
      event_id: event.id,
      stream_name: stream.name,
      stream_id: stream.id,
      stream_revision: revision,
      type: event.type,
      data: JSON.stringify(event.data ?? null),
      metadata: JSON.stringify(event.metadata),
    };
    return this.#columns.map((column) => {
      if (!(column in byColumn)) throw new Error(`the raw limit does not know the events column ${column}`);
      return byColumn[column];
    });
  }
}

function countLines(chunk: Buffer): number {
  let lines = 0;
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
  return lines;
}

/** Bytes of a binary COPY stream's header: signature (11), flags (4), extension length (4, none here). */
const BINARY_COPY_HEADER = 19;

/** A counter of the rows of a binary COPY stream, chunk by chunk: rows may span chunks. */
function countBinaryRows(): (chunk: Buffer) => number {
  let rest: Buffer = Buffer.alloc(0);
  let headerRead = false;
  return (chunk) => {
    const bytes = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
    let at = 0;
    if (!headerRead) {
      if (bytes.length < BINARY_COPY_HEADER) {
        rest = bytes;
        return 0;
      }
      at = BINARY_COPY_HEADER;
      headerRead = true;
    }
    let rows = 0;
    for (;;) {
      const row = at;
      if (at + 2 > bytes.length) break;
      const fields = bytes.readInt16BE(at);
      if (fields === -1) {
        at += 2;
        break;
      }
      at += 2;
      let complete = true;
      for (let field = 0; field < fields; field++) {
        if (at + 4 > bytes.length) {
          complete = false;
          break;
        }
        at += 4 + Math.max(bytes.readInt32BE(at), 0);
      }
      if (!complete || at > bytes.length) {
        at = row;
        break;
      }
      rows++;
    }
    rest = bytes.subarray(at);
    return rows;
  };
}

/** A line of COPY's text format: tab-separated, escaped as the store's COPY of big appends escapes. */
function copyLine(values: unknown[]): string {
  return `${values.map((value) => copyText(String(value))).join('\t')}\n`;
}
