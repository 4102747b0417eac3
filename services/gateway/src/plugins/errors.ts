import { answeredDetails, DomainError, type ErrorBody, type FieldIssue } from '@eelarve/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../infrastructure/database';

const API_PREFIXES = ['/api/', '/initial/', '/public/'];
/** The embedded server's supervisor restarts it within seconds; a client need not come back sooner. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

export function isApiPath(url: string): boolean {
  return API_PREFIXES.some((prefix) => url.startsWith(prefix)) || url === '/health' || url === '/ready';
}

function fieldIssues(error: FastifyError): FieldIssue[] {
  return (error.validation ?? []).map((issue) => {
    const params = issue.params as { issue?: { path?: (string | number)[]; code?: string } } | undefined;
    const pathParts = params?.issue?.path ?? issue.instancePath.split('/').filter(Boolean);
    const context = (error as FastifyError & { validationContext?: string }).validationContext;
    return {
      path: [context, ...pathParts].filter((part) => part !== undefined && part !== '').join('.'),
      message: issue.message ?? 'validation.invalid',
      code: params?.issue?.code,
    };
  });
}

/**
 * One place turns every failure into `{ code, message, details? }` (DESIGN.md section 4):
 * domain errors keep their catalogue code and status, malformed requests answer 400 with the
 * schema-validation code, a database that is away answers 503 SERVICE_UNAVAILABLE with
 * Retry-After, and only a real fault answers 500.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const send = (status: number, body: Omit<ErrorBody, 'requestId'>) => reply.status(status).send({ ...body, requestId: request.id });
    if (error instanceof DomainError) {
      return send(error.status, { code: error.code, message: error.message, details: answeredDetails(error.details) });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return send(400, { code: 'SCHEMA_VALIDATION_ERROR', message: 'request does not match the schema', details: fieldIssues(error) });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
      return send(500, { code: 'INTERNAL_ERROR', message: 'internal error' });
    }
    if (isDatabaseUnavailable(error)) {
      // The database is restarting or stopped: a temporary state the client should wait out, not a fault.
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return send(503, { code: 'SERVICE_UNAVAILABLE', message: 'the database is unavailable; try again shortly' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const multipart = error.code?.includes('MULTIPART') || error.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE';
      return send(status, { code: multipart ? 'MULTIPART_FORM_ERROR' : 'SCHEMA_VALIDATION_ERROR', message: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(500, { code: 'INTERNAL_ERROR', message: 'internal error' });
  });
});
