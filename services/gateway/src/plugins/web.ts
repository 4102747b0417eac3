import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isApiPath } from './errors';

/**
 * Serves the built web client; every unknown non-API path gets index.html so the client's router
 * decides (and shows its own not-found page). Unknown API paths answer 404 OBJECT_NOT_FOUND.
 */
export const webPlugin = fp(async (app: FastifyInstance, options: { webDist?: string }) => {
  const root = options.webDist && existsSync(path.join(options.webDist, 'index.html')) ? options.webDist : undefined;
  if (root) {
    await app.register(fastifyStatic, { root, wildcard: false, index: false, maxAge: '1h', immutable: false });
  }
  app.setNotFoundHandler((request, reply) => {
    if (isApiPath(request.url) || !root || request.method !== 'GET') {
      return reply.status(404).send({ code: 'OBJECT_NOT_FOUND', message: `no route ${request.method} ${request.url}`, requestId: request.id });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html', root);
  });
});
