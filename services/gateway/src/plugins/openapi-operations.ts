import { ERROR_STATUS, errorBodySchema } from '@eelarve/shared';
import type { SwaggerTransformObject } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RouteAccess } from '../types';
import { OPERATION_DETAILS, type OperationDetails, TAG_DESCRIPTIONS } from './openapi-summaries';

/**
 * What a client generator needs of every operation (issue 11, point 5), added here once so that
 * a route added later gets it without doing anything: an operationId, a summary, tags, its error
 * answers in the product's error model and nullable schemas written as OpenAPI 3.0 means them.
 * A route that sets operationId, summary, tags, security or an error response itself keeps it.
 */

type Json = Record<string, unknown>;
/** The parts of an operation this pass reads and writes; the rest passes through untouched. */
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  responses?: Record<string, unknown>;
  [ERROR_STATUSES_KEY]?: number[];
}
interface OpenApiDocument {
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Json; responses?: Json; [part: string]: unknown };
  servers?: { url: string; description?: string }[];
  tags?: { name: string; description?: string }[];
  [field: string]: unknown;
}
interface Located {
  method: string;
  path: string;
  operation: Operation;
}
type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/** Carries a route's error statuses from the per-route transform to the document pass; never published. */
const ERROR_STATUSES_KEY = 'x-eelarve-error-statuses';
const ERROR_SCHEMA_REF = '#/components/schemas/Error';

/** The shared error answers, by status: a name for components/responses and what the status means here. */
const ERROR_RESPONSES: Record<number, { name: string; meaning: string }> = {
  400: { name: 'BadRequest', meaning: 'The request does not match its schema; `details` lists each field (path and message key).' },
  401: { name: 'Unauthorized', meaning: 'No valid session or credentials.' },
  403: { name: 'Forbidden', meaning: 'The caller may not do this (privileges, grants, status, cross-site request).' },
  404: { name: 'NotFound', meaning: 'The resource does not exist or the caller may not see it (both answer alike).' },
  409: { name: 'Conflict', meaning: 'The request conflicts with the current state; read it again and retry.' },
  413: { name: 'PayloadTooLarge', meaning: 'The body or file is over its limit.' },
  422: { name: 'UnprocessableEntity', meaning: 'The request breaks a business rule.' },
};
/** 429, 500 and 503 (with Retry-After) come from any route: one `default` answer covers them. */
const UNEXPECTED_ERROR = {
  name: 'UnexpectedError',
  meaning: 'Any other error: too many attempts, an internal error, or the service is unavailable (see Retry-After).',
};

/** The error codes answered with a status, so an integrator sees which `code` values to expect. */
function codesWithStatus(matches: (status: number) => boolean): string[] {
  return Object.entries(ERROR_STATUS)
    .filter(([, status]) => matches(status))
    .map(([code]) => code);
}

function errorResponse(meaning: string, codes: string[]): Json {
  return {
    description: `${meaning} Codes: ${codes.join(', ')}.`,
    content: { 'application/json': { schema: { $ref: ERROR_SCHEMA_REF } } },
  };
}

/** components.schemas.Error and components.responses, from the product's error model (errorBodySchema). */
export function errorComponents(): { schemas: Json; responses: Json } {
  const { $schema: _, ...error } = z.toJSONSchema(errorBodySchema, { target: 'openapi-3.0', io: 'output' }) as Json;
  const statuses = Object.keys(ERROR_RESPONSES).map(Number);
  const responses = Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, { name, meaning }]) => [
      name,
      errorResponse(
        meaning,
        codesWithStatus((s) => s === Number(status)),
      ),
    ]),
  );
  responses[UNEXPECTED_ERROR.name] = errorResponse(
    UNEXPECTED_ERROR.meaning,
    codesWithStatus((s) => !statuses.includes(s)),
  );
  return { schemas: { Error: error }, responses };
}

/** The auth plugin's rule: a route that declares no access needs an occupation (plugins/auth.ts). */
function accessOf(route: RouteOptions): RouteAccess {
  return route.config?.access ?? 'occupation';
}

/** A route that checks credentials itself (an ERP route's API key) declares them as its security. */
function declaresCredentials(route: RouteOptions): boolean {
  const security = (route.schema as { security?: unknown[] } | undefined)?.security;
  return Array.isArray(security) && security.length > 0;
}

/** The error statuses a route can answer, from what the server checks before and around its handler. */
export function errorStatusesOf(route: RouteOptions, method: string): number[] {
  const signedIn = accessOf(route) !== 'public' || declaresCredentials(route);
  const unsafe = UNSAFE_METHODS.has(method);
  const statuses = [400];
  if (signedIn) statuses.push(401);
  // Privileges and grants for signed-in callers; the same-origin check on any state-changing call.
  if (signedIn || unsafe) statuses.push(403);
  if (route.url.includes(':')) statuses.push(404);
  if (signedIn && unsafe) statuses.push(409);
  if (BODY_METHODS.has(method)) statuses.push(413);
  if (unsafe) statuses.push(422);
  return statuses;
}

/**
 * The swagger `transform`: the zod schemas become JSON schema (fastify-type-provider-zod), and
 * the route's facts the document needs later (error statuses, public access) ride along.
 */
export function routeTransform(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const result = jsonSchemaTransform(input);
  const route = (input as TransformInput & { route?: RouteOptions }).route;
  if (!route || result.schema?.hide) return result;
  const schema: Json = { ...(result.schema ?? {}) };
  const method = [route.method].flat()[0]!.toUpperCase();
  schema[ERROR_STATUSES_KEY] = errorStatusesOf(route, method);
  // Public routes need no session: the document-wide security does not apply to them.
  if (accessOf(route) === 'public' && schema.security === undefined) schema.security = [];
  return { ...result, schema };
}

// ---- operation ids and summaries -----------------------------------------------------------

function words(segment: string): string[] {
  return segment
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

function camelCase(parts: string[]): string {
  return parts.map((part, index) => (index === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1))).join('');
}

const pathParameter = (segment: string) => /^\{(.+)\}$/.exec(segment)?.[1];

/**
 * method + path, readable and stable: `GET /api/organization/{id}` → getOrganizationById. Only a
 * trailing parameter is named (`long` names every one: for the rare paths that would collide).
 */
export function operationIdFor(method: string, path: string, long = false): string {
  const segments = path.split('/').filter(Boolean);
  if (segments[0] === 'api') segments.shift();
  const parts = [method.toLowerCase()];
  segments.forEach((segment, index) => {
    const parameter = pathParameter(segment);
    if (parameter === undefined) parts.push(...words(segment));
    else if (long || index === segments.length - 1) parts.push('by', ...words(parameter));
  });
  return camelCase(parts);
}

/** A path segment's words for a sentence; the product's term "sub-budget" keeps its hyphen. */
const phrase = (segment: string) =>
  segment
    .replace(/-/g, ' ')
    .replace(/\bsub budget/g, 'sub-budget')
    .split(' ')
    .filter(Boolean);

const SUMMARY_VERBS: Record<string, string> = { get: 'Read', put: 'Update', patch: 'Change', delete: 'Delete' };

/**
 * A readable sentence for a route that wrote none: the method's verb and the path's words
 * (`PUT /api/budget/{id}/tags` → "Update budget tags"); a POST either creates (201) or names its
 * action last (`POST /api/budget/{id}/approval/submit` → "Submit budget approval").
 */
export function summaryFor(method: string, path: string, operation: Operation): string {
  const description = typeof operation.description === 'string' ? operation.description.trim() : '';
  const firstSentence = /^[^\n]*?[.!?](?=\s|$)/.exec(description)?.[0] ?? description.split('\n')[0]!;
  if (firstSentence && firstSentence.length <= 120) return firstSentence.replace(/[.]$/, '');
  const segments = path.split('/').filter((segment) => segment && pathParameter(segment) === undefined);
  if (['api', 'initial', 'public'].includes(segments[0]!)) segments.shift();
  const all = segments.flatMap(phrase);
  let sentence: string[];
  if (method !== 'post') sentence = [SUMMARY_VERBS[method] ?? method.toUpperCase(), ...all];
  else if (operation.responses?.['201']) sentence = ['Create', ...all];
  else sentence = [...phrase(segments.at(-1) ?? 'call'), ...segments.slice(0, -1).flatMap(phrase)];
  const text = sentence.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// ---- the document pass ---------------------------------------------------------------------

/** The null-only schema of OpenAPI 3.0 (the same @fastify/swagger writes for `type: 'null'`). */
const nullOnly = () => ({ type: 'object', nullable: true, enum: [null] });

/** A typed schema that takes null too: `nullable`, and null among its enum values if it has any. */
function allowNull(schema: Json): void {
  schema.nullable = true;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
}

/**
 * OpenAPI 3.0.3: `nullable` only adds null to an explicit `type` in the same schema, and an enum
 * must list null itself. zod's 3.0 target writes `nullable` beside `anyOf` (a nullable union),
 * which lets no null through and which linters reject: one typed member of the union takes null
 * instead (or, with none, a null-only member), which generators read as `A | B | null`.
 */
export function fixNullable(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) fixNullable(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  for (const value of Object.values(schema)) fixNullable(value);
  if (schema.nullable !== true) return;
  if (schema.type !== undefined) {
    allowNull(schema);
    return;
  }
  delete schema.nullable;
  const union = schema.anyOf ? 'anyOf' : schema.oneOf ? 'oneOf' : undefined;
  // Without a type and a union, the schema already takes any value, null included.
  if (!union) return;
  const members = schema[union] as Json[];
  const typed = members.find((member) => member.type !== undefined && member.$ref === undefined);
  if (typed) allowNull(typed);
  else schema[union] = [...members, nullOnly()];
}

function operationsOf(document: OpenApiDocument): Located[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({ method, path, operation: item[method] as Operation })),
  );
}

function addErrorResponses(operation: Operation): void {
  const statuses: number[] = operation[ERROR_STATUSES_KEY] ?? [400];
  delete operation[ERROR_STATUSES_KEY];
  operation.responses ??= {};
  for (const status of statuses) {
    operation.responses[status] ??= { $ref: `#/components/responses/${ERROR_RESPONSES[status]!.name}` };
  }
  operation.responses.default ??= { $ref: `#/components/responses/${UNEXPECTED_ERROR.name}` };
}

/** Ids that two operations would share get the long form (every parameter named), so each stays unique. */
function assignOperationIds(operations: Located[]): void {
  const short = operations.map(({ method, path, operation }) => operation.operationId ?? operationIdFor(method, path));
  const counts = new Map<string, number>();
  for (const id of short) counts.set(id, (counts.get(id) ?? 0) + 1);
  operations.forEach(({ method, path, operation }, index) => {
    if (operation.operationId) return;
    operation.operationId = counts.get(short[index]!)! > 1 ? operationIdFor(method, path, true) : short[index];
  });
}

/** A written summary, extra error statuses, and credentials the route checks itself: then it answers 401 and 403 too. */
function applyDetails(operation: Operation, details: OperationDetails): void {
  operation.summary ??= details.summary;
  const statuses = new Set([...(operation[ERROR_STATUSES_KEY] ?? [400]), ...(details.errorStatuses ?? [])]);
  if (details.security && !operation.security?.length) {
    operation.security = details.security;
    statuses.add(401).add(403);
  }
  operation[ERROR_STATUSES_KEY] = [...statuses].sort((a, b) => a - b);
}

/** The fallback tag: the path's first word after /api, /initial or /public. */
function tagFor(path: string): string {
  const segments = path.split('/').filter(Boolean);
  return segments.find((segment, index) => index > 0 || !['api', 'initial', 'public'].includes(segment)) ?? 'general';
}

/** Completes every operation, then the document's shared parts. */
export function completeDocument(document: OpenApiDocument, serverUrl: string): OpenApiDocument {
  const operations = operationsOf(document);
  assignOperationIds(operations);
  for (const { method, path, operation } of operations) {
    const details = OPERATION_DETAILS[`${method} ${path}`];
    if (details) applyDetails(operation, details);
    operation.summary ??= summaryFor(method, path, operation);
    if (!operation.tags?.length) operation.tags = [tagFor(path)];
    addErrorResponses(operation);
  }
  fixNullable(document.paths);
  fixNullable(document.components?.schemas);
  const errors = errorComponents();
  document.components = {
    ...document.components,
    schemas: { ...errors.schemas, ...document.components?.schemas },
    responses: { ...errors.responses, ...document.components?.responses },
  };
  document.servers ??= [{ url: serverUrl.replace(/\/+$/, '') || '/', description: 'This installation' }];
  const tagNames = [...new Set(operations.flatMap(({ operation }) => operation.tags as string[]))].sort();
  document.tags ??= tagNames.map((name) => (TAG_DESCRIPTIONS[name] ? { name, description: TAG_DESCRIPTIONS[name] } : { name }));
  return document;
}

/** The swagger `transformObject`; the server address is read when the document is first built. */
export function documentTransform(serverUrl: () => string): SwaggerTransformObject {
  return (documentObject) => {
    if (!('openapiObject' in documentObject)) throw new Error('OpenAPI 2.0 is not supported');
    return completeDocument(documentObject.openapiObject as OpenApiDocument, serverUrl()) as ReturnType<SwaggerTransformObject>;
  };
}
