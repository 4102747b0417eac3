import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { PRODUCT_NAME } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { documentTransform, routeTransform } from './openapi-operations';

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

/**
 * OpenAPI 3.0 generated from the routes' zod schemas, served at /api/docs (JSON at /api/docs/json):
 * what an ERP integrator generates a client from, so every operation gets an id, a summary and
 * its error answers (plugins/openapi-operations.ts), for routes added later too.
 */
export const openApiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: `${PRODUCT_NAME} API`, version: app.buildInfo.version, description: 'Budget planning and monitoring API' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'eelarve_session' },
          budgetApiKey: {
            type: 'http',
            scheme: 'basic',
            description: "An ERP job's import into a monitoring budget: HTTP Basic with the budget's API key (only where the organisation allows API usage).",
          },
        },
      },
      security: [{ session: [] }],
    },
    transform: routeTransform,
    // The address as configured when the document is first built (a test server learns its port late).
    transformObject: documentTransform(() => app.config.publicUrl),
  });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    staticCSP: docsContentSecurityPolicy(app.config.environment === 'production'),
  });
});
