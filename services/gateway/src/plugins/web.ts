import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
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
async function sendIndexHtml(reply: FastifyReply, root: string) {
  const html = await readFile(path.join(root, 'index.html'), 'utf8');
  const nonce = reply.cspNonce?.style ?? '';
  return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html.replaceAll(CSP_NONCE_PLACEHOLDER, nonce));
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
    await app.register(fastifyStatic, { root, wildcard: false, index: false, maxAge: '1h', immutable: false, allowedPath });
  }
  app.setNotFoundHandler((request, reply) => {
    if (isApiPath(lenientPath(request.url)) || !root || request.method !== 'GET') {
      return reply.status(404).send({ code: 'OBJECT_NOT_FOUND', message: `no route ${request.method} ${request.url}`, requestId: request.id });
    }
    return sendIndexHtml(reply, root);
  });
});
