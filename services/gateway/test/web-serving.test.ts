import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_PREFIX } from '../src/plugins/openapi';
import { CSP_NONCE_PLACEHOLDER, HASHED_ASSET_CACHE } from '../src/plugins/web';
import { startTestServer, type TestServer } from '@eelarve/testing/server';

/**
 * Issue 9, point 8 (server side): HEAD of a page answers as GET does, the web build is served
 * compressed with long-lived caching of hashed files, and request log lines stay out of the way
 * outside production.
 */
const ASSET = '/assets/app-B4x9kQ2m.js';
const PRECOMPRESSED_ASSET = '/assets/grid-Zt7pL0aa.js';
const ASSET_SOURCE = Array.from({ length: 400 }, (_, line) => `export const value${line} = ${line} * 2;`).join('\n');
const INDEX_HTML = `<!doctype html><html><head><meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}"><script type="module" src="${ASSET}"></script></head><body><div id="root"></div></body></html>`;

interface CapturedLine {
  level: number;
  msg: string;
  reqId?: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
}

type Destination = { write(line: string): boolean };

/** pino's destination, kept under a private symbol on the logger's prototype chain. */
function logDestination(logger: object): Destination {
  for (let target: object | null = logger; target; target = Object.getPrototypeOf(target)) {
    const symbol = Object.getOwnPropertySymbols(target).find((candidate) => candidate.description === 'pino.stream');
    if (symbol) return (target as Record<symbol, Destination>)[symbol]!;
  }
  throw new Error('no pino destination');
}

/** Every line the app's logger writes from now on (the destination is shared by child loggers). */
function captureLog(app: FastifyInstance): CapturedLine[] {
  const lines: CapturedLine[] = [];
  const stream = logDestination(app.log);
  stream.write = (line: string) => {
    lines.push(JSON.parse(line) as CapturedLine);
    return true;
  };
  return lines;
}

/** Fastify's two lines about one request, told apart by its request id. */
function requestLines(lines: CapturedLine[], requestId: string): CapturedLine[] {
  return lines.filter((line) => line.reqId === requestId && (line.msg === 'incoming request' || line.msg === 'request completed'));
}

let webDist: string;
let server: TestServer;
let log: CapturedLine[];

beforeAll(async () => {
  webDist = mkdtempSync(path.join(os.tmpdir(), 'eelarve-web-serving-'));
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(path.join(webDist, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(webDist, ASSET), ASSET_SOURCE);
  writeFileSync(path.join(webDist, PRECOMPRESSED_ASSET), ASSET_SOURCE);
  writeFileSync(path.join(webDist, `${PRECOMPRESSED_ASSET}.br`), brotliCompressSync(ASSET_SOURCE));
  server = await startTestServer({ listen: false, webDist, config: { logLevel: 'debug' } });
  log = captureLog(server.app);
});
afterAll(async () => {
  await server?.close();
  if (webDist) rmSync(webDist, { recursive: true, force: true });
});

describe('HEAD of web pages', () => {
  it.each(['/', '/login', '/documents/unknown'])('HEAD %s answers 200 with the headers of GET and no body', async (url) => {
    const get = await server.app.inject({ method: 'GET', url });
    const head = await server.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['cache-control']).toBe('no-cache');
  });

  it('keeps HEAD of an unknown API path a 404', async () => {
    const head = await server.app.inject({ method: 'HEAD', url: '/api/no-such-route' });
    expect(head.statusCode).toBe(404);
  });
});

describe('static files', () => {
  it('serves hashed assets immutable for a year, gzip-compressed when asked', async () => {
    const response = await server.app.inject({ method: 'GET', url: ASSET, headers: { 'accept-encoding': 'gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe(HASHED_ASSET_CACHE);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.rawPayload.length).toBeLessThan(ASSET_SOURCE.length / 2);
    expect(gunzipSync(response.rawPayload).toString('utf8')).toBe(ASSET_SOURCE);
  });

  it('sends the plain file to a client that does not ask for compression', async () => {
    const response = await server.app.inject({ method: 'GET', url: ASSET, headers: { 'accept-encoding': 'identity' } });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(ASSET_SOURCE);
  });

  it('sends a .br file made at build time as it is', async () => {
    const response = await server.app.inject({ method: 'GET', url: PRECOMPRESSED_ASSET, headers: { 'accept-encoding': 'br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe(HASHED_ASSET_CACHE);
    expect(response.rawPayload.equals(brotliCompressSync(ASSET_SOURCE))).toBe(true);
  });

  it('does not mark files outside /assets/ immutable', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).not.toContain('immutable');
  });

  it('serves index.html no-cache with this response nonce, also when compressed', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    const html = response.headers['content-encoding'] === 'gzip' ? gunzipSync(response.rawPayload).toString('utf8') : response.body;
    const nonce = /property="csp-nonce" nonce="([^"]+)"/.exec(html)?.[1];
    expect(nonce).toBeTruthy();
    expect(nonce).not.toBe(CSP_NONCE_PLACEHOLDER);
    expect(String(response.headers['content-security-policy'])).toContain(`'nonce-${nonce}'`);
  });

  it('compresses API JSON when asked', async () => {
    const response = await server.app.inject({ method: 'GET', url: `${DOCS_PREFIX}/json`, headers: { 'accept-encoding': 'gzip' } });
    if (response.statusCode !== 200) return expect.unreachable(`the OpenAPI document answered ${response.statusCode}`);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(response.rawPayload).toString('utf8'))).toHaveProperty('paths');
  });
});

describe('request logging', () => {
  it('logs requests at debug outside production', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/login' });
    const lines = requestLines(log, String(response.headers['x-request-id']));
    expect(lines.map((line) => [line.msg, line.level])).toEqual([
      ['incoming request', 20],
      ['request completed', 20],
    ]);
    expect(lines[0]!.req?.url).toBe('/login');
    expect(lines[1]!.res?.statusCode).toBe(200);
  });

  it('logs requests at info in production', async () => {
    const secrets = { key: randomBytes(32).toString('base64') };
    const production = await startTestServer({ listen: false, webDist, config: { environment: 'production', logLevel: 'info', secrets } });
    try {
      const lines = captureLog(production.app);
      const response = await production.app.inject({ method: 'GET', url: '/login' });
      const logged = requestLines(lines, String(response.headers['x-request-id']));
      expect(logged.map((line) => [line.msg, line.level])).toEqual([
        ['incoming request', 30],
        ['request completed', 30],
      ]);
    } finally {
      await production.close();
    }
  });
});
