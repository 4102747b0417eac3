// The records list requests of `pnpm bench:records` (records.ts, measureList), on a worker thread
// of their own, as a browser tab reads a list: its heap holds the list it reads and nothing else.
// The bench's main thread holds the imported rows and the world by the time the list is measured,
// and each 6 MB answer set off its collections over all of that, inside the timed requests.
// Plain JavaScript, so the thread needs no TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';

/** @type {{ url: string, cookie: string, encodings: string, warm: number, requests: number }} */
const { url, cookie, encodings, warm, requests } = workerData;

/** One request's times from its start: the answer's head (the server's first byte), its last byte received as text, and parsed. */
async function listOnce() {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie, 'accept-encoding': encodings } });
  const head = performance.now() - started;
  if (response.status !== 200) throw new Error(`records list: ${response.status} ${await response.text()}`);
  const text = await response.text();
  const received = performance.now() - started;
  const count = JSON.parse(text).length;
  return { head, received, parsed: performance.now() - started, count };
}

for (let index = 0; index < warm; index++) await listOnce();
const timings = [];
for (let index = 0; index < requests; index++) timings.push(await listOnce());
parentPort.postMessage(timings);
