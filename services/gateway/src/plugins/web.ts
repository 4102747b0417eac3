import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isApiPath } from './errors';

/**
 * The path as a lenient reader would take it: percent-decoded (again while it changes, for
 * `%2561`), lower case, repeated slashes collapsed. `/%41PI//x` is not a route, and it must not
 * get the web client's page either.
 */
function lenientPath(url: string): string {
  let decoded = url.split('?')[0] ?? '';
  for (let round = 0; round < 5; round++) {
    let next = decoded;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      // Malformed escapes: judge the path as written so far.
    }
    if (next === decoded) break;
    decoded = next;
  }
  return decoded.toLowerCase().replace(/\/{2,}/g, '/');
}

/** What the web build (vite.config.ts, `html.cspNonce`) writes where each response's nonce goes. */
export const CSP_NONCE_PLACEHOLDER = '__EELARVE_CSP_NONCE__';

/**
 * index.html with this response's style nonce (from helmet, also in its CSP header): the client
 * reads it from `<meta property="csp-nonce">` and gives it to the <style> elements AG Grid adds.
 * Read on every request, so a rebuilt client is served at once; it is fetched once per page load.
 */
async function sendIndexHtml(request: FastifyRequest, reply: FastifyReply, root: string) {
  const html = await readFile(path.join(root, 'index.html'), 'utf8');
  const nonce = reply.cspNonce?.style ?? '';
  const body = html.replaceAll(CSP_NONCE_PLACEHOLDER, nonce);
  reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8');
  // HEAD answers as GET does, without the body (the not-found handler has no automatic HEAD route).
  if (request.method === 'HEAD') return reply.header('content-length', Buffer.byteLength(body)).send();
  // @fastify/compress decorates replies per route; the not-found handler is none, so it may be missing.
  return typeof reply.compress === 'function' ? reply.compress(body) : reply.send(body);
}

/** Vite puts content-hashed file names under /assets/: a new build gets new names, so they never change. */
export const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Other build files (favicon.svg) keep their names across builds. */
const PLAIN_FILE_CACHE = 'public, max-age=3600';

function staticCacheControl(root: string) {
  const assets = path.join(root, 'assets') + path.sep;
  return (response: { setHeader(name: string, value: string): unknown }, filePath: string) => {
    response.setHeader('cache-control', filePath.startsWith(assets) ? HASHED_ASSET_CACHE : PLAIN_FILE_CACHE);
  };
}

/**
 * Serves the built web client; every unknown non-API path gets index.html so the client's router
 * decides (and shows its own not-found page). Unknown API paths, in any spelling, answer 404 OBJECT_NOT_FOUND.
 */
export const webPlugin = fp(async (app: FastifyInstance, options: { webDist?: string }) => {
  const root = options.webDist && existsSync(path.join(options.webDist, 'index.html')) ? options.webDist : undefined;
  if (root) {
    // index.html only through sendIndexHtml (it needs the response's nonce); other files as they are.
    const allowedPath = (pathName: string) => pathName !== '/index.html';
    // preCompressed: .br/.gz siblings made at build time are sent as they are; without them
    // @fastify/compress (app.ts) compresses on the fly.
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders: staticCacheControl(root),
      preCompressed: true,
      allowedPath,
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pageRequest = request.method === 'GET' || request.method === 'HEAD';
    if (isApiPath(lenientPath(request.url)) || !root || !pageRequest) {
      return reply.status(404).send({ code: 'OBJECT_NOT_FOUND', message: `no route ${request.method} ${request.url}`, requestId: request.id });
    }
    return sendIndexHtml(request, reply, root);
  });
});
