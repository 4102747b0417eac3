import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodType } from 'zod';
import { registeredRoutes } from '../src/infrastructure/route-list';
import { type Client, validOrganization } from './helpers';

/**
 * What the route-wide tests (property-commands, route-fuzzing) share: every route of the app as
 * the app itself registered it, and a small world made through the HTTP API as the platform
 * administrator, whose ids fill the routes' path parameters.
 */

export const COMMAND_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const API_PREFIXES = ['/api/', '/initial/', '/public/'];

/** Routes that end the caller's session: sending them would sign the test out mid-run. */
export const SESSION_ENDING_ROUTES = new Set(['POST /api/auth/logout', 'POST /initial/auth/logout']);

export interface RouteUnderTest {
  method: string;
  url: string;
  body?: ZodType;
  /** The names the route's querystring schema declares. */
  queryKeys: string[];
  key: string;
}

function queryKeysOf(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

/** Every API route (all methods but HEAD/OPTIONS), from the app's own route table. */
export function apiRoutes(app: FastifyInstance): RouteUnderTest[] {
  return registeredRoutes(app)
    .filter((route) => route.method !== 'HEAD' && route.method !== 'OPTIONS')
    .filter((route) => API_PREFIXES.some((prefix) => route.url.startsWith(prefix)) || route.url === '/health' || route.url === '/ready')
    .map((route) => ({
      method: route.method,
      url: route.url,
      body: route.schema?.body as ZodType | undefined,
      queryKeys: queryKeysOf(route.schema?.querystring),
      key: `${route.method} ${route.url}`,
    }));
}

/** The state-changing API routes, less those that would end the session. */
export function commandRoutes(app: FastifyInstance): RouteUnderTest[] {
  return apiRoutes(app).filter((route) => COMMAND_METHODS.has(route.method) && !SESSION_ENDING_ROUTES.has(route.key));
}

export type ResourceKind =
  | 'organization'
  | 'document'
  | 'budget'
  | 'scheme'
  | 'subBudget'
  | 'classifier'
  | 'item'
  | 'user'
  | 'role'
  | 'occupation'
  | 'task'
  | 'projector';

export type World = Record<ResourceKind, string>;

const KIND_OF_PARAM: Record<string, ResourceKind> = {
  organizationId: 'organization',
  orgId: 'organization',
  documentId: 'document',
  budgetId: 'budget',
  schemaId: 'scheme',
  schemeId: 'scheme',
  subBudgetId: 'subBudget',
  classifierId: 'classifier',
  itemId: 'item',
  userId: 'user',
  name: 'projector',
};

/** A bare `:id` is named by the path segment before it. */
const KIND_OF_SEGMENT: Record<string, ResourceKind> = {
  organization: 'organization',
  admin: 'organization',
  document: 'document',
  budget: 'budget',
  schema: 'scheme',
  'sub-budget': 'subBudget',
  classifier: 'classifier',
  item: 'item',
  user: 'user',
  role: 'role',
  occupation: 'occupation',
  task: 'task',
};

function kindOf(segments: string[], index: number): ResourceKind | undefined {
  const name = segments[index]?.slice(1) ?? '';
  if (name !== 'id') return KIND_OF_PARAM[name];
  return KIND_OF_SEGMENT[segments[index - 1] ?? ''];
}

/** The route's URL with each path parameter taken from `world` (or from `override` when given). */
export function fillPath(url: string, world: World, override?: (name: string) => string | undefined): string {
  const segments = url.split('/');
  return segments
    .map((segment, index) => {
      if (!segment.startsWith(':')) return segment;
      const given = override?.(segment.slice(1));
      if (given !== undefined) return encodeURIComponent(given);
      const kind = kindOf(segments, index);
      return encodeURIComponent(kind ? world[kind] : randomUUID());
    })
    .join('/');
}

async function created(client: Client, method: 'POST' | 'PUT', url: string, payload: object): Promise<string> {
  const response = await client.request({ method, url, payload });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json().id;
}

/**
 * One of each resource a route can address, made through the API by the platform administrator:
 * an organisation with a user, role and occupation; a document with two classifiers (one an
 * item), a scheme, a sub-budget and a budget.
 */
export async function buildWorld(admin: Client): Promise<World> {
  const tag = randomUUID().slice(0, 8);
  const organization = await created(admin, 'POST', '/api/organization', { ...validOrganization, name: `Maailm ${tag}` });
  const user = await created(admin, 'POST', `/api/organization/${organization}/user`, { name: 'Mari Maasikas', email: `mari.${tag}@example.test` });
  const role = await created(admin, 'POST', `/api/organization/${organization}/role`, { name: 'Vaataja', description: '', privilegeIds: ['SCHEMA_VIEW'] });
  const occupation = await created(admin, 'POST', `/api/organization/${organization}/occupation`, { userId: user, name: 'Analüütik', roles: [role] });
  const document = await created(admin, 'POST', `/api/organization/${organization}/document`, {
    name: 'Eelarve 2027',
    period: { year: 2027, month: 1, duration: 1 },
  });
  const classifierBody = (fieldName: string) => ({
    name: fieldName,
    itemName: fieldName,
    fieldName,
    required: true,
    codeSettings: { typeName: 'Code', minLength: 1, maxLength: 20 },
  });
  const classifier = await created(admin, 'POST', `/api/document/${document}/classifier`, classifierBody('tegevusala'));
  await created(admin, 'POST', `/api/document/${document}/classifier`, classifierBody('allikas'));
  const item = await created(admin, 'POST', `/api/classifier/${classifier}/item`, { code: '01', name: 'Haridus' });
  await created(admin, 'PUT', `/api/document/${document}`, {
    name: 'Eelarve 2027',
    period: { year: 2027, month: 1, duration: 1 },
    masterClassifierId: classifier,
  });
  const scheme = await created(admin, 'POST', `/api/document/${document}/schema`, {
    name: 'Kulud',
    fieldName: 'kulud',
    classifierList: [{ classifierId: classifier, type: 'MAIN' }],
  });
  const subBudget = await created(admin, 'POST', `/api/schema/${scheme}/sub-budget`, { name: 'Haridus', classifiers: { [classifier]: '01' } });
  const budget = await created(admin, 'POST', `/api/document/${document}/budget`, { type: 'COMMON', name: 'Põhieelarve' });
  return { organization, document, budget, scheme, subBudget, classifier, item, user, role, occupation, task: randomUUID(), projector: 'no-such-projector' };
}

/** The world's ids by the body field names that carry them, so generated bodies address real things. */
export function idsByField(world: World): Record<string, string[]> {
  return {
    organizationId: [world.organization],
    documentId: [world.document],
    sourceDocumentId: [world.document],
    budgetId: [world.budget],
    sourceBudgetId: [world.budget],
    sumBudgetComponentIds: [world.budget],
    schemeId: [world.scheme],
    schemaId: [world.scheme],
    pinned: [world.subBudget],
    ids: [world.subBudget],
    classifierId: [world.classifier],
    masterClassifierId: [world.classifier],
    primaryGroupedById: [world.classifier],
    itemId: [world.item],
    itemIds: [world.item],
    userId: [world.user],
    roles: [world.role],
    occupationId: [world.occupation],
  };
}
