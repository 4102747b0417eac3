// The editors of `pnpm bench:records` (records.ts, editFor), on a worker thread of their own.
// Sixteen people at sixteen browsers do not share one JavaScript heap; in the bench's main thread
// they did, and that thread also holds the imported rows and the gateway's traces: one of its
// major garbage collections held every editor's next edit, and the edits then went out together
// and queued behind each other at the gateway. Here the heap holds only the editors' records.
// Plain JavaScript, so the thread needs no TypeScript loader.
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

/** @type {{ base: string, editors: { cookie: string, records: { id: string, body: Record<string, unknown> }[] }[], seconds: number, think: { min: number, max: number } | null }} */
const { base, editors, seconds, think } = workerData;

const euros = (cents) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const thinkMs = () => (think ? think.min + Math.random() * (think.max - think.min) : 0);

const latencies = [];
const requestIds = [];
const sentAt = [];
const lastWritten = new Map();
let failures = 0;

async function edit(editor) {
  const until = Date.now() + seconds * 1000;
  // People who pause between edits do not start at the same millisecond either: each begins after
  // a pause of its own. Started together, the 16 first edits reached the gateway as one burst, and
  // that burst alone was the slowest 1% of a run.
  const first = thinkMs();
  if (first > 0) await sleep(first);
  for (let round = 0; Date.now() < until; round++) {
    const record = editor.records[round % editor.records.length];
    const amount = euros(10_000 + Math.floor(Math.random() * 10_000_000));
    const requestId = randomUUID();
    const started = performance.now();
    const response = await fetch(`${base}/record/${record.id}`, {
      method: 'PUT',
      headers: { cookie: editor.cookie, 'content-type': 'application/json', 'x-request-id': requestId },
      body: JSON.stringify({ ...record.body, amount }),
    });
    await response.text();
    latencies.push(performance.now() - started);
    requestIds.push(requestId);
    sentAt.push(started);
    if (response.status === 200) lastWritten.set(record.id, amount);
    else failures++;
    const pause = thinkMs();
    if (pause > 0) await sleep(pause);
  }
}

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
await Promise.all(editors.map(edit));
delay.disable();
parentPort.postMessage({
  latencies,
  requestIds,
  sentAt,
  failures,
  lastWritten: [...lastWritten],
  delayP99Ms: delay.percentile(99) / 1e6,
  delayMaxMs: delay.max / 1e6,
});
