import { comparePositions, type EventStore, formatPosition, type GlobalPosition, type Subscription } from '@eelarve/eventstore';
import { backoffDelay } from '@eelarve/projections/signal';
import { DomainError } from '@eelarve/shared';
import { type Touched, touchedBy, WATCHED_EVENT_TYPES } from './touched';

/** One open change stream: who holds it, what it watches, and how to write to it. */
export interface LiveListener {
  userId: string;
  documentId: string;
  /** The report's budget and, for a sum budget, its components (their records count in its report). */
  budgetIds: readonly string[];
  /** Writes server-sent-event text to the stream. */
  send(text: string): void;
  /** Ends the stream (the server is closing). */
  end(): void;
}

export interface ChangeHubOptions {
  store: EventStore;
  /** Resolves once the report's read model holds `position` (bounded), so a refetch after `changed` sees the change. */
  awaitReadModel(position: GlobalPosition): Promise<unknown>;
  onError(error: unknown): void;
  /** At most one `changed` per budget within this time: an import's chunks or a bulk edit announce once. */
  coalesceMs?: number;
  /** A comment this often keeps proxies from closing an idle stream. */
  heartbeatMs?: number;
  /** Open streams per user (a browser has 6 connections per host over HTTP/1.1; each stream holds one). */
  maxStreamsPerUser?: number;
  /** The subscription stays this long after the last stream closed, so a reconnecting page finds it. */
  idleMs?: number;
}

interface PendingChange {
  position: GlobalPosition | undefined;
  lastSentAt: number;
  timer: NodeJS.Timeout | undefined;
  flushing: boolean;
}

export const changedMessage = (budgetId: string, position: GlobalPosition) =>
  `event: changed\ndata: ${JSON.stringify({ budgetId, position: formatPosition(position) })}\n\n`;
const HEARTBEAT = ': keep-alive\n\n';

const newest = (a: GlobalPosition | undefined, b: GlobalPosition) => (a && comparePositions(a, b) >= 0 ? a : b);

/**
 * The gateway's one listener for report changes (issue 12, point 8): a single subscription to
 * the log's record, import and deletion events, started with the first open stream, fans a
 * `changed` event out to the streams watching each budget it touched, once the report's read
 * model holds the change, at most once per budget per `coalesceMs`.
 */
export class ReportChangeHub {
  private readonly listeners = new Set<LiveListener>();
  private readonly byBudget = new Map<string, Set<LiveListener>>();
  private readonly pending = new Map<string, PendingChange>();
  private subscription: Subscription | undefined;
  private starting: Promise<void> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private closed = false;
  private readonly coalesceMs: number;
  private readonly maxStreamsPerUser: number;

  constructor(private readonly options: ChangeHubOptions) {
    this.coalesceMs = options.coalesceMs ?? 300;
    this.maxStreamsPerUser = options.maxStreamsPerUser ?? 4;
  }

  /** Registers a stream once the subscription runs (changes after this call reach it); returns its removal. */
  async add(listener: LiveListener): Promise<() => void> {
    if (this.streamsOf(listener.userId) >= this.maxStreamsPerUser) throw new DomainError('LIVE_REPORT_STREAMS_EXCEEDED');
    this.listeners.add(listener);
    for (const budgetId of listener.budgetIds) this.watchersOf(budgetId).add(listener);
    clearTimeout(this.idleTimer);
    try {
      await this.ensureRunning();
    } catch (error) {
      this.remove(listener);
      throw error;
    }
    return () => this.remove(listener);
  }

  /** Ends every stream and stops listening (the server is closing). */
  async close(): Promise<void> {
    this.closed = true;
    for (const listener of [...this.listeners]) {
      this.remove(listener);
      listener.end();
    }
    await this.stop();
  }

  private streamsOf(userId: string): number {
    let count = 0;
    for (const listener of this.listeners) if (listener.userId === userId) count++;
    return count;
  }

  private watchersOf(budgetId: string): Set<LiveListener> {
    const watchers = this.byBudget.get(budgetId) ?? new Set<LiveListener>();
    this.byBudget.set(budgetId, watchers);
    return watchers;
  }

  private remove(listener: LiveListener): void {
    if (!this.listeners.delete(listener)) return;
    for (const budgetId of listener.budgetIds) {
      const watchers = this.byBudget.get(budgetId);
      watchers?.delete(listener);
      if (watchers?.size === 0) this.byBudget.delete(budgetId);
    }
    if (this.listeners.size === 0 && !this.closed) {
      this.idleTimer = setTimeout(() => void this.stopIfIdle(), this.options.idleMs ?? 30_000);
      this.idleTimer.unref();
    }
  }

  private ensureRunning(): Promise<void> {
    if (this.subscription) return Promise.resolve();
    this.starting ??= this.subscribe().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async subscribe(): Promise<void> {
    const from = await this.options.store.headPosition();
    if (this.closed) return;
    this.subscription = this.options.store.subscribeToAll({
      fromPosition: from,
      eventTypes: WATCHED_EVENT_TYPES,
      onEvents: async (events) => {
        this.failures = 0;
        this.announce(touchedBy(events));
      },
      onError: (error) => this.restartAfter(error),
    });
    this.heartbeat ??= setInterval(() => this.broadcast(HEARTBEAT), this.options.heartbeatMs ?? 15_000);
    this.heartbeat.unref();
  }

  /** The subscription gave up: subscribe again from the head, and tell every stream that anything may have changed meanwhile. */
  private restartAfter(error: unknown): void {
    this.options.onError(error);
    this.subscription = undefined;
    if (this.closed || this.listeners.size === 0) return;
    this.restartTimer = setTimeout(
      async () => {
        try {
          await this.ensureRunning();
          const head = await this.options.store.headPosition();
          for (const budgetId of this.byBudget.keys()) this.schedule(budgetId, head);
        } catch (failure) {
          this.restartAfter(failure);
        }
      },
      backoffDelay(this.failures++),
    );
    this.restartTimer.unref();
  }

  private async stopIfIdle(): Promise<void> {
    if (this.listeners.size === 0) await this.stop();
  }

  private async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    clearTimeout(this.idleTimer);
    clearTimeout(this.restartTimer);
    this.heartbeat = undefined;
    for (const state of this.pending.values()) clearTimeout(state.timer);
    this.pending.clear();
    await this.starting?.catch(() => {});
    const subscription = this.subscription;
    this.subscription = undefined;
    await subscription?.stop();
  }

  private announce(touched: Touched): void {
    for (const [budgetId, position] of touched.budgets) {
      if (this.byBudget.has(budgetId)) this.schedule(budgetId, position);
    }
    if (touched.documents.size === 0) return;
    // A deleted document takes its budgets with it: rare enough to look through every stream.
    for (const listener of this.listeners) {
      const position = touched.documents.get(listener.documentId);
      if (position) for (const budgetId of listener.budgetIds) this.schedule(budgetId, position);
    }
  }

  private schedule(budgetId: string, position: GlobalPosition): void {
    const state = this.pending.get(budgetId) ?? { position: undefined, lastSentAt: 0, timer: undefined, flushing: false };
    this.pending.set(budgetId, state);
    state.position = newest(state.position, position);
    if (state.timer || state.flushing) return;
    state.timer = setTimeout(() => void this.flush(budgetId, state), Math.max(0, state.lastSentAt + this.coalesceMs - Date.now()));
  }

  private async flush(budgetId: string, state: PendingChange): Promise<void> {
    state.timer = undefined;
    const position = state.position;
    if (!position) return;
    state.position = undefined;
    state.flushing = true;
    try {
      await this.options.awaitReadModel(position);
    } catch (error) {
      // Announce anyway: the page's refetch waits for the position itself.
      this.options.onError(error);
    }
    state.flushing = false;
    state.lastSentAt = Date.now();
    const text = changedMessage(budgetId, position);
    for (const listener of this.byBudget.get(budgetId) ?? []) listener.send(text);
    if (state.position) this.schedule(budgetId, state.position);
    else if (!this.byBudget.has(budgetId)) this.pending.delete(budgetId);
  }

  private broadcast(text: string): void {
    for (const listener of this.listeners) listener.send(text);
  }
}
