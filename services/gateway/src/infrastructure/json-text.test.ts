import { brotliDecompressSync } from 'node:zlib';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonArrayBatch, LARGE_JSON_COMPRESSION, sendJsonArray } from './json-text';

/**
 * sendJsonArray: batches of bytes (a free first byte, then the elements comma-separated, as
 * jsonArrayBatch and the records lists' listRowsBytes write them) answered as one JSON array.
 */

/** A route answering the batches a test gives, compressed as the records lists are. */
async function appAnswering(batches: () => AsyncIterable<Buffer>): Promise<FastifyInstance> {
  // A client that went away leaves no connection for close() to wait on.
  const app = Fastify({ forceCloseConnections: true });
  await app.register(compress, { globalDecompression: false });
  app.get('/list', { compress: LARGE_JSON_COMPRESSION }, async (_request, reply) => sendJsonArray(reply, batches()));
  await app.ready();
  return app;
}

async function* batchesOf(...batches: string[][]) {
  for (const batch of batches) yield jsonArrayBatch(batch);
}

let app: FastifyInstance | undefined;
afterEach(async () => app?.close());

describe('sendJsonArray', () => {
  it('answers the batches as one JSON array, commas only between records', async () => {
    app = await appAnswering(() => batchesOf(['{"a":1}', '{"a":"2,]"}'], [], ['{"a":3}']));
    const response = await app.inject({ method: 'GET', url: '/list' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toBe('[{"a":1},{"a":"2,]"},{"a":3}]');
  });

  it('answers texts beyond ASCII byte for byte as UTF-8 (Estonian letters, symbols, surrogate pairs)', async () => {
    const texts = ['{"name":"Jüri \\"JJ\\" Tamm, ]"}', '{"name":"Õun € 😀"}', '{"name":"š"}'];
    app = await appAnswering(() => batchesOf(texts.slice(0, 2), [], texts.slice(2)));
    const response = await app.inject({ method: 'GET', url: '/list' });
    expect(response.rawPayload.equals(Buffer.from(`[${texts.join(',')}]`, 'utf8'))).toBe(true);
  });

  it('answers [] without batches or with empty ones only', async () => {
    app = await appAnswering(() => batchesOf());
    expect((await app.inject({ method: 'GET', url: '/list' })).body).toBe('[]');
    await app.close();
    app = await appAnswering(() => batchesOf([], []));
    expect((await app.inject({ method: 'GET', url: '/list' })).body).toBe('[]');
  });

  it('compresses the stream for a client that takes brotli', async () => {
    const records = Array.from({ length: 3_000 }, (_, n) => JSON.stringify({ n, name: `Rida ${n}` }));
    app = await appAnswering(() => batchesOf(records.slice(0, 1_000), records.slice(1_000)));
    const response = await app.inject({ method: 'GET', url: '/list', headers: { 'accept-encoding': 'br' } });
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(`[${records.join(',')}]`);
  });

  it('answers a failure before the first batch as an error, not as a cut stream', async () => {
    app = await appAnswering(async function* () {
      yield* [];
      throw new Error('the database is away');
    });
    const response = await app.inject({ method: 'GET', url: '/list' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ message: 'the database is away' });
  });

  it.each(['identity', 'br'])('cuts the connection (never a complete-looking 200) when a batch fails mid-list, %s', async (encoding) => {
    app = await appAnswering(async function* () {
      for (let n = 0; n < 4; n++) yield jsonArrayBatch([JSON.stringify({ n, pad: 'x'.repeat(100_000) })]);
      throw new Error('the connection was terminated (idle in transaction)');
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/list`, { headers: { 'accept-encoding': encoding } });
    expect(response.status).toBe(200);
    await expect(response.arrayBuffer()).rejects.toThrow();
  });

  it('ends the batches (closing their cursor) when the client goes away mid-list', async () => {
    let closed = false;
    app = await appAnswering(async function* () {
      try {
        for (let n = 0; ; n++) yield jsonArrayBatch([JSON.stringify({ n, pad: 'x'.repeat(10_000) })]);
      } finally {
        closed = true;
      }
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const client = new AbortController();
    const response = await fetch(`${address}/list`, { signal: client.signal, headers: { 'accept-encoding': 'identity' } });
    const reader = response.body?.getReader();
    expect((await reader?.read())?.done).toBe(false);
    client.abort();
    await expect.poll(() => closed, { timeout: 10_000 }).toBe(true);
  });
});
