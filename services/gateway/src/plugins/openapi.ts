import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { PRODUCT_NAME } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const DOCS_PREFIX = '/api/docs';

/**
 * swagger-ui's own policy on its routes (it replaces the product's there): as strict, except
 * that swagger-ui's bundle injects <style> elements without a nonce, so styles here may be
 * inline. Only on the docs, which show no personal data; scripts stay 'self' only, nothing may
 * frame it.
 */
function docsContentSecurityPolicy(production: boolean): string {
  const directives = [
    "default-src 'self'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  return [...directives, ...(production ? ['upgrade-insecure-requests'] : [])].join('; ');
}

/** OpenAPI generated from the routes' zod schemas, served at /api/docs (JSON at /api/docs/json). */
export const openApiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      info: { title: `${PRODUCT_NAME} API`, version: app.buildInfo.version, description: 'Budget planning and monitoring API' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'eelarve_session' } } },
      security: [{ session: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    staticCSP: docsContentSecurityPolicy(app.config.environment === 'production'),
  });
});
