import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  url: string;
  /** The route's validation schemas (zod) as declared: body, querystring, params. */
  schema?: { body?: unknown; querystring?: unknown; params?: unknown };
}

const routesOf = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/**
 * Records every route added after this call (an onRoute hook reaches the routes of every plugin
 * registered later), so tests can enumerate the routes from the app itself rather than from a
 * hand-kept list, and a new route is covered by the route-wide tests at once.
 */
export function recordRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  routesOf.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, schema: route.schema as RegisteredRoute['schema'] });
  });
}

/** Each method and URL pattern of the app's routes, in registration order. */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return routesOf.get(app) ?? [];
}
