import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
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

/**
 * Serves the built web client; every unknown non-API path gets index.html so the client's router
 * decides (and shows its own not-found page). Unknown API paths, in any spelling, answer 404 OBJECT_NOT_FOUND.
 */
export const webPlugin = fp(async (app: FastifyInstance, options: { webDist?: string }) => {
  const root = options.webDist && existsSync(path.join(options.webDist, 'index.html')) ? options.webDist : undefined;
  if (root) {
    await app.register(fastifyStatic, { root, wildcard: false, index: false, maxAge: '1h', immutable: false });
  }
  app.setNotFoundHandler((request, reply) => {
    if (isApiPath(lenientPath(request.url)) || !root || request.method !== 'GET') {
      return reply.status(404).send({ code: 'OBJECT_NOT_FOUND', message: `no route ${request.method} ${request.url}`, requestId: request.id });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html', root);
  });
});
