import { constants } from 'node:zlib';
import { Readable } from 'node:stream';
import type { FastifyCompressOptions } from '@fastify/compress';
import type { FastifyReply } from 'fastify';

/**
 * The compressor's output pieces for lists of megabytes: the default 16 KB made ~30 trips between
 * the compression thread and the main thread, and as many socket writes, per 10,000-record list.
 */
const LARGE_JSON_CHUNK_BYTES = 128 * 1024;

/**
 * A route's `compress` option for JSON lists of megabytes (a 10,000-record list is ~6.4 MB):
 * brotli at quality 1 (browsers) or gzip at level 1 (other clients) shrink it ~14× in 8-12 ms of
 * CPU, where the plugin's defaults (brotli 4, gzip 6) took 25-31 ms for ~10% less; 6.4 MB take
 * ~50 ms on the wire even at 1 Gbit/s.
 */
export const LARGE_JSON_COMPRESSION = {
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 1 }, chunkSize: LARGE_JSON_CHUNK_BYTES },
  zlibOptions: { level: 1, chunkSize: LARGE_JSON_CHUNK_BYTES },
} satisfies FastifyCompressOptions;

/**
 * Answers with JSON text built elsewhere (PostgreSQL's `json_agg` for lists of thousands of rows),
 * as it is: Fastify sends a string with a JSON content type without serialising it again. The
 * route's response schema still documents the answer; the query that builds it follows that shape.
 */
export async function sendJsonText(reply: FastifyReply, text: Promise<string>): Promise<never> {
  const body = await text;
  // An async handler that sends must resolve to the reply itself; typed `never` because the
  // route's typed reply expects the schema's shape, which this text already has.
  return reply.type('application/json; charset=utf-8').send(body) as never;
}

/**
 * A batch of sendJsonArray: one free byte (a space until sendJsonArray makes it the '[' or ','
 * before the batch), then the texts comma-separated, as UTF-8 bytes, each written straight into
 * one buffer of the exact size, where joining them first built a ~600 KB string only to encode it
 * again (a 10,000-record list encodes in a third of the time). Exact, not a bound of 3 bytes per
 * character: V8 counts a buffer's whole size as external memory, which drives its GCs.
 */
export function jsonArrayBatch(texts: readonly string[]): Buffer {
  let size = 1 + Math.max(0, texts.length - 1);
  for (const text of texts) size += Buffer.byteLength(text);
  const bytes = Buffer.allocUnsafe(size);
  bytes[0] = 0x20;
  let at = 1;
  texts.forEach((text, index) => {
    if (index > 0) at += bytes.write(',', at);
    at += bytes.write(text, at);
  });
  // Never a byte of the unset memory, should a text's length and its writing ever disagree.
  return bytes.subarray(0, at);
}

/**
 * Answers a JSON array whose elements arrive as batches (a cursor's fetches), as a stream. Each
 * batch is one buffer: a free first byte, then its elements comma-separated (jsonArrayBatch, or
 * the records lists' listRowsBytes); the free byte becomes the '[' or ',' before it, so every
 * batch leaves as the one buffer it was written into. The first bytes leave (through the compressor) while PostgreSQL still reads, and no
 * text of the whole list is ever built, so a list of any size is answered in bounded memory (a
 * million records are ~600 MB of JSON, more than a JavaScript string holds). The first batch is
 * awaited before the answer starts: a failure there (the database away, a refused read) answers
 * with its error code as any route does (a pool wait that timed out: 503); one later destroys the
 * socket (json-text.test.ts), so the client sees a failed transfer, never a cut body that looks whole.
 */
export async function sendJsonArray(reply: FastifyReply, batches: AsyncIterable<Buffer>): Promise<never> {
  const iterator = batches[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* arrayBytes() {
    let separator = OPEN_BRACKET;
    for (let step = first; !step.done; step = await iterator.next()) {
      // The free byte alone: a batch without elements.
      if (step.value.length < 2) continue;
      step.value[0] = separator;
      yield step.value;
      separator = COMMA;
    }
    yield Buffer.from(separator === OPEN_BRACKET ? '[]' : ']');
  }
  const body = Readable.from(arrayBytes(), { objectMode: false });
  // A client gone mid-list (or before the first read): the batches' source ends, closing its cursor.
  body.once('close', () => void iterator.return?.()?.catch(() => undefined));
  return reply.type('application/json; charset=utf-8').send(body) as never;
}

const OPEN_BRACKET = 0x5b;
const COMMA = 0x2c;
