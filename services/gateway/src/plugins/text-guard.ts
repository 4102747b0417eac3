import { CONTROL_CHARACTERS_MESSAGE, DomainError, type FieldIssue, isUnstorableText } from '@eelarve/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The last line of defence behind the contracts' text primitives (issue 8, finding 2): no
 * request, on any route present or future, reaches PostgreSQL with U+0000 (refused in text and
 * jsonb) or a lone surrogate (not valid UTF-8) in a header, a path parameter, the query or the
 * JSON body, keys included. Such a request answers 400 SCHEMA_VALIDATION_ERROR naming the place.
 */

/** The first unstorable string in a parsed value, walked without recursion (bodies may nest deeply). */
export function findUnstorableText(root: unknown, rootPath: string): string | null {
  const pending: Array<{ value: unknown; path: string }> = [{ value: root, path: rootPath }];
  while (pending.length > 0) {
    const { value, path } = pending.pop() as { value: unknown; path: string };
    if (typeof value === 'string') {
      if (isUnstorableText(value)) return path;
    } else if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) pending.push({ value: item, path: `${path}.${index}` });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (isUnstorableText(key)) return path;
        pending.push({ value: item, path: `${path}.${key}` });
      }
    }
  }
  return null;
}

function refuse(path: string): DomainError {
  const issue: FieldIssue = { path, message: CONTROL_CHARACTERS_MESSAGE, code: 'custom' };
  return new DomainError('SCHEMA_VALIDATION_ERROR', 'request does not match the schema', [issue]);
}

/** Header values and the (already decoded) path parameters and query string. */
function checkUrlAndHeaders(request: FastifyRequest): void {
  const place =
    findUnstorableText(request.headers, 'headers') ?? findUnstorableText(request.params, 'params') ?? findUnstorableText(request.query, 'querystring');
  if (place) throw refuse(place);
}

export const textGuardPlugin = fp(async (app: FastifyInstance) => {
  // onRequest: before the session lookup, which reads the cookie header.
  app.addHook('onRequest', async (request) => checkUrlAndHeaders(request));
  // preValidation: the body is parsed by now (JSON; multipart parts are read by their routes).
  app.addHook('preValidation', async (request) => {
    const place = findUnstorableText(request.body, 'body');
    if (place) throw refuse(place);
  });
});
