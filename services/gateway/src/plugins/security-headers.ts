import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isApiPath } from './errors';

/**
 * The Content-Security-Policy of every answer (the web client's page above all). Scripts and
 * styles only from this origin, plus a per-response nonce (added by helmet) that index.html
 * hands to the <style> elements AG Grid injects (`styleNonce`), so no 'unsafe-inline' is
 * needed. React's `style` props go through the CSSOM, which CSP does not restrict. Images may be
 * data: URLs (AG Grid's icons are SVG data URLs in its CSS). Nothing may frame the product.
 */
export function contentSecurityDirectives(production: boolean) {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    // The electronic-ID sign-in is a link to our own /public/auth/pass-login, which redirects.
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    // Over plain HTTP in development an upgrade would break every request.
    upgradeInsecureRequests: production ? [] : null,
  };
}

/** API answers carry personal data: neither the browser nor a proxy may keep them. */
function isApiRequest(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  return (route !== undefined && isApiPath(route)) || isApiPath(request.url);
}

/**
 * Security headers through @fastify/helmet: the CSP above, X-Frame-Options DENY, nosniff,
 * same-origin referrers, HSTS in production only (a development server on http://localhost must
 * not pin HTTPS for the host), and `Cache-Control: no-store` on every API answer.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  const production = app.config.environment === 'production';
  await app.register(helmet, {
    enableCSPNonces: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityDirectives(production) },
    // Module scripts and fetches are same-origin; cross-origin isolation is not needed.
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  app.addHook('onSend', async (request, reply) => {
    if (isApiRequest(request)) reply.header('cache-control', 'no-store');
  });
});
