import { type PerformanceEntry, PerformanceObserver, performance } from 'node:perf_hooks';

/**
 * Opt-in latency trace of commands (EELARVE_TRACE_COMMANDS=1): where a request that runs a
 * command spends its time (auth, access reads, record and facts, stream read, decide, append,
 * the wait for each read model, the answer), with the garbage collections and event-loop stalls
 * that overlapped it.
 * A traced command slower than EELARVE_TRACE_SLOW_MS (50) is logged at warn as 'slow command'
 * with its phases; `pnpm bench:records` sets 0 to collect them all. Off, every call is a
 * pass-through: no timing, no allocation beyond the caller's own promise.
 */
export const commandTracing = process.env.EELARVE_TRACE_COMMANDS === '1';
const SLOW_MS = Number(process.env.EELARVE_TRACE_SLOW_MS ?? 50);

export interface TraceSpan {
  name: string;
  /** Milliseconds from the request's arrival to the span's start. */
  at: number;
  ms: number;
}

interface CommandTrace {
  started: number;
  spans: TraceSpan[];
  /** Whether the request ran a command (only those are logged). */
  ranCommand: boolean;
}

export interface FinishedTrace {
  requestId: string;
  totalMs: number;
  spans: TraceSpan[];
  /** The collections that overlapped the request: kind and pause in ms. */
  gc: { kind: string; ms: number }[];
  /** Event-loop stalls (ms) that overlapped the request. */
  stalls: number[];
}

const traces = new Map<string, CommandTrace>();
const rounded = (ms: number) => Math.round(ms * 10) / 10;

/** Recent collections (start and duration on the performance clock), for overlap with slow requests. */
const recentGc: { start: number; duration: number; kind: string }[] = [];
const GC_KEPT = 512;
const GC_KINDS: Record<number, string> = { 1: 'scavenge', 2: 'mark-sweep', 4: 'incremental', 8: 'weak-callbacks', 16: 'all' };

function observeGc(): void {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = GC_KINDS[(entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0] ?? 'gc';
      recentGc.push({ start: entry.startTime, duration: entry.duration, kind });
      if (recentGc.length > GC_KEPT) recentGc.shift();
    }
  }).observe({ entryTypes: ['gc'] });
}

/**
 * Stalls of the event loop (a tick later than due by more than STALL_MS), for overlap with slow
 * requests: a request that waits while the loop is busy elsewhere (a projector's batch, a large
 * answer) shows the stall in whatever phase it was in.
 */
const recentStalls: { start: number; duration: number }[] = [];
const TICK_MS = 5;
const STALL_MS = 20;

function observeStalls(): void {
  let due = performance.now() + TICK_MS;
  setInterval(() => {
    const now = performance.now();
    const late = now - due;
    if (late > STALL_MS) {
      recentStalls.push({ start: due, duration: late });
      if (recentStalls.length > GC_KEPT) recentStalls.shift();
    }
    due = now + TICK_MS;
  }, TICK_MS).unref();
}

if (commandTracing) {
  observeGc();
  observeStalls();
}

/** Starts timing a request (the auth plugin calls it first thing). */
export function beginTrace(requestId: string): void {
  if (commandTracing) traces.set(requestId, { started: performance.now(), spans: [], ranCommand: false });
}

/** Marks the request as one that runs a command: its trace is logged when slow. */
export function traceCommand(requestId: string): void {
  const trace = traces.get(requestId);
  if (trace) trace.ranCommand = true;
}

/** Times `work` as the phase `name` of the request's trace (phases may overlap); a pass-through when not tracing. */
export function traced<T>(requestId: string, name: string, work: Promise<T>): Promise<T> {
  const trace = commandTracing ? traces.get(requestId) : undefined;
  if (!trace) return work;
  const start = performance.now();
  const record = () => trace.spans.push({ name, at: rounded(start - trace.started), ms: rounded(performance.now() - start) });
  return work.then(
    (value) => {
      record();
      return value;
    },
    (error: unknown) => {
      record();
      throw error;
    },
  );
}

/** Ends the request's trace; answers it when the request ran a command and took at least the slow threshold. */
export function finishTrace(requestId: string): FinishedTrace | null {
  const trace = traces.get(requestId);
  if (!trace) return null;
  traces.delete(requestId);
  const end = performance.now();
  const totalMs = end - trace.started;
  if (!trace.ranCommand || totalMs < SLOW_MS) return null;
  const lastEnd = Math.max(0, ...trace.spans.map((span) => span.at + span.ms));
  const spans = [...trace.spans, { name: 'answer', at: rounded(lastEnd), ms: rounded(totalMs - lastEnd) }];
  const gc = recentGc
    .filter((entry) => entry.start + entry.duration >= trace.started && entry.start <= end)
    .map((entry) => ({ kind: entry.kind, ms: rounded(entry.duration) }));
  const stalls = recentStalls.filter((stall) => stall.start + stall.duration >= trace.started && stall.start <= end).map((stall) => rounded(stall.duration));
  return { requestId, totalMs: rounded(totalMs), spans, gc, stalls };
}
