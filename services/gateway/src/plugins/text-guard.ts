import { CONTROL_CHARACTERS_MESSAGE, DomainError, type FieldIssue, isUnstorableText } from '@eelarve/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The last line of defence behind the contracts' text primitives (issue 8, finding 2): no
 * request, on any route present or future, reaches PostgreSQL with U+0000 (refused in text and
 * jsonb) or a lone surrogate (not valid UTF-8) in a header, a path parameter, the query or the
 * JSON body, keys included. Such a request answers 400 SCHEMA_VALIDATION_ERROR naming the place.
 */

/**
 * The first unstorable string in a parsed value, walked without recursion (bodies may nest
 * deeply). Bodies are almost always clean and can be large (an import's 100,000 rows), so the
 * walk first only asks whether there is one, with no path made per value (a string per value
 * was most of its cost and of the garbage it left); the path is worked out only when there is.
 */
export function findUnstorableText(root: unknown, rootPath: string): string | null {
  return holdsUnstorableText(root) ? pathOfUnstorableText(root, rootPath) : null;
}

function holdsUnstorableText(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (isUnstorableText(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        if (isUnstorableText(key)) return true;
        pending.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

function pathOfUnstorableText(root: unknown, rootPath: string): string | null {
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
