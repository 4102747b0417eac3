import type { StoredEvent } from '@eelarve/eventstore';
import { type Kysely, sql } from 'kysely';
import { defineProjector, type Projector } from '../src/projector';

export interface LedgerOptions {
  name?: string;
  version?: number;
  /** Runs inside the batch transaction after the entries are written and before the balances. */
  between?: (events: StoredEvent[], db: Kysely<unknown>) => Promise<void>;
  /** Suffix written into every entry, so tests can tell two versions' output apart. */
  label?: string;
}

/**
 * A test read model with two tables: one row per handled event (duplicates would show) and a
 * balance per stream kept by a set-based upsert.
 */
export function ledgerProjector(options: LedgerOptions = {}): Projector {
  const name = options.name ?? 'ledger';
  const label = options.label ?? 'v1';
  return defineProjector({
    name,
    version: options.version ?? 1,
    eventTypes: ['Deposited', 'Withdrawn'],
    tables: [`${name}_entries`, `${name}_balances`],
    async migrate(db) {
      await db.schema
        .createTable(`${name}_entries`)
        .addColumn('event_id', 'uuid', (col) => col.notNull())
        .addColumn('stream', 'text', (col) => col.notNull())
        .addColumn('amount', 'numeric', (col) => col.notNull())
        .addColumn('label', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createTable(`${name}_balances`)
        .addColumn('stream', 'text', (col) => col.primaryKey())
        .addColumn('balance', 'numeric', (col) => col.notNull())
        .addColumn('events', 'integer', (col) => col.notNull())
        .execute();
    },
    async handle(events, db) {
      const amounts = events.map((event) => signedAmount(event));
      await db
        .insertInto(`${name}_entries`)
        .values(events.map((event, index) => ({ event_id: event.id, stream: event.streamName, amount: amounts[index], label })))
        .execute();
      await options.between?.(events, db);
      await sql`
        insert into ${sql.table(`${name}_balances`)} as cur (stream, balance, events)
        select stream, sum(amount), count(*)
        from unnest(${events.map((event) => event.streamName)}::text[], ${amounts}::numeric[]) as u(stream, amount)
        group by stream
        on conflict (stream) do update
        set balance = cur.balance + excluded.balance, events = cur.events + excluded.events`.execute(db);
    },
  });
}

function signedAmount(event: StoredEvent): string {
  const { amount } = event.data as { amount: string };
  return event.type === 'Withdrawn' ? `-${amount}` : amount;
}
