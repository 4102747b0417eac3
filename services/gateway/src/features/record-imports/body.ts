import { gunzip, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { DomainError } from '@eelarve/shared';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The import body (spec 3, section 7): gzip-compressed JSON, announced by `Content-Encoding:
 * gzip` and/or `Content-Type: application/gzip` (the gzip magic bytes decide). Both sizes are
 * capped, so neither a large upload nor a small body that unpacks to gigabytes (a gzip bomb) can
 * exhaust the gateway: over a cap answers 413 IMPORT_BODY_TOO_LARGE, anything that is not gzip
 * JSON 400 IMPORT_BODY_INVALID. Plain JSON (no gzip) is taken as well, within the first cap.
 */
export const IMPORT_BODY_LIMITS = { compressedBytes: 20 * 1024 * 1024, unpackedBytes: 200 * 1024 * 1024 } as const;

const unzip = promisify(gunzip);
const pack = promisify(gzip);
const GZIP_MAGIC = [0x1f, 0x8b];
const isGzip = (bytes: Buffer) => bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];

/** The request's body as stored with the import: gzip bytes, whatever way it came. */
const storedBodies = new WeakMap<FastifyRequest, Buffer>();

export function gzipBodyOf(request: FastifyRequest): Buffer {
  const stored = storedBodies.get(request);
  if (!stored) throw new DomainError('IMPORT_BODY_INVALID', 'the request had no import body');
  return stored;
}

function saysGzip(request: FastifyRequest): boolean {
  const encoding = String(request.headers['content-encoding'] ?? '').toLowerCase();
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  return encoding.includes('gzip') || type.startsWith('application/gzip') || type.startsWith('application/x-gzip');
}

/** Unpacks (bounded) and parses a gzip JSON body. */
export async function unpackImportBody(bytes: Buffer): Promise<unknown> {
  let text: string;
  try {
    // Only the text is kept: the unpacked bytes are garbage before the (larger) parsed rows exist.
    text = (await unzip(bytes, { maxOutputLength: IMPORT_BODY_LIMITS.unpackedBytes })).toString('utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new DomainError('IMPORT_BODY_TOO_LARGE', 'the import body unpacks beyond 200 MB');
    throw new DomainError('IMPORT_BODY_INVALID', 'the import body is not valid gzip');
  }
  return parseJson(text);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError('IMPORT_BODY_INVALID', 'the import body is not JSON');
  }
}

async function parseImportBody(request: FastifyRequest, bytes: Buffer): Promise<unknown> {
  if (isGzip(bytes)) {
    const parsed = await unpackImportBody(bytes);
    storedBodies.set(request, bytes);
    return parsed;
  }
  if (saysGzip(request)) throw new DomainError('IMPORT_BODY_INVALID', 'the body is announced as gzip but is not');
  const parsed = parseJson(bytes.toString('utf8'));
  storedBodies.set(request, await pack(bytes));
  return parsed;
}

/**
 * In the import routes' own plugin scope: their bodies are read by this parser (JSON, gzip or
 * octet-stream content types), and the body cap answers in the product's error model.
 */
export function useImportBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    ['application/json', 'application/gzip', 'application/x-gzip', 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: IMPORT_BODY_LIMITS.compressedBytes },
    async (request: FastifyRequest, body: Buffer) => parseImportBody(request, body),
  );
  app.setErrorHandler((error: FastifyError) => {
    // Thrown on, so the product's error handler (plugins/errors.ts) answers it.
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new DomainError('IMPORT_BODY_TOO_LARGE', 'the import body is over 20 MB');
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw new DomainError('IMPORT_BODY_INVALID', 'send gzip-compressed JSON');
    throw error;
  });
}
