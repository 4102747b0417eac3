import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { errorStatusesOf, fixNullable, operationIdFor, summaryFor } from '../src/plugins/openapi-operations';

/** The document pass's pure parts (issue 11, point 5); openapi-lint.test.ts lints the whole served document. */
const route = (url: string, config: RouteOptions['config'] = {}, schema: RouteOptions['schema'] = {}) =>
  ({ url, method: 'GET', config, schema, handler: () => {} }) as unknown as RouteOptions;

describe('operationIdFor', () => {
  it('reads as method and path, naming only a trailing parameter', () => {
    expect(operationIdFor('get', '/api/organizations')).toBe('getOrganizations');
    expect(operationIdFor('put', '/api/organization/{id}')).toBe('putOrganizationById');
    expect(operationIdFor('post', '/api/budget/{budgetId}/sub-budget/{subBudgetId}/records-bulk-edit')).toBe('postBudgetSubBudgetRecordsBulkEdit');
    expect(operationIdFor('get', '/initial/auth/me')).toBe('getInitialAuthMe');
  });

  it('names every parameter in its long form', () => {
    expect(operationIdFor('get', '/api/budget/{budgetId}/schema/{schemaId}/records', true)).toBe('getBudgetByBudgetIdSchemaBySchemaIdRecords');
  });
});

describe('summaryFor', () => {
  it("takes the description's first sentence", () => {
    expect(summaryFor('get', '/api/x', { description: 'Lists the things. Then more.' })).toBe('Lists the things');
  });

  it('makes a sentence from the method and the path', () => {
    expect(summaryFor('put', '/api/budget/{id}/tags', {})).toBe('Update budget tags');
    expect(summaryFor('get', '/api/schema/{id}/sub-budgets', {})).toBe('Read schema sub-budgets');
    expect(summaryFor('post', '/api/schema/{schemaId}/sub-budget', { responses: { 201: {} } })).toBe('Create schema sub-budget');
    expect(summaryFor('post', '/api/budget/{id}/approval/submit', { responses: { 200: {} } })).toBe('Submit budget approval');
  });
});

describe('errorStatusesOf', () => {
  it('gives a signed-in write every answer and a public read only a bad request', () => {
    expect(errorStatusesOf(route('/api/budget/:id'), 'PUT')).toEqual([400, 401, 403, 404, 409, 413, 422]);
    expect(errorStatusesOf(route('/api/budget/:id'), 'DELETE')).toEqual([400, 401, 403, 404, 409, 422]);
    expect(errorStatusesOf(route('/public/auth/pass-login', { access: 'public' }), 'GET')).toEqual([400]);
    // A public write still meets the same-origin check (403) and the business rules (422).
    expect(errorStatusesOf(route('/initial/auth/login', { access: 'public' }), 'POST')).toEqual([400, 403, 413, 422]);
  });

  it('treats a public route that declares its own credentials as signed in', () => {
    const erp = route('/budgets/:budgetId/import', { access: 'public' }, { security: [{ budgetApiKey: [] }] });
    expect(errorStatusesOf(erp, 'POST')).toEqual([400, 401, 403, 404, 409, 413, 422]);
  });
});

describe('fixNullable (OpenAPI 3.0.3)', () => {
  it('lets null through one typed member of a nullable union', () => {
    const sign = {
      nullable: true,
      default: null,
      anyOf: [
        { type: 'number', enum: [1] },
        { type: 'number', enum: [-1] },
      ],
    };
    fixNullable(sign);
    expect(sign).toEqual({
      default: null,
      anyOf: [
        { type: 'number', enum: [1, null], nullable: true },
        { type: 'number', enum: [-1] },
      ],
    });
  });

  it('adds null to the enum of a nullable enum', () => {
    const state = { type: 'string', enum: ['COPYING', 'INCOMPLETE'], nullable: true };
    fixNullable({ properties: { state } });
    expect(state.enum).toEqual(['COPYING', 'INCOMPLETE', null]);
  });

  it('adds a null-only member to a union of references, and drops nullable where it means nothing', () => {
    const union = { nullable: true, oneOf: [{ $ref: '#/components/schemas/A' }] };
    const anything = { nullable: true, description: 'any value' };
    fixNullable([union, anything]);
    expect(union).toEqual({ oneOf: [{ $ref: '#/components/schemas/A' }, { type: 'object', nullable: true, enum: [null] }] });
    expect(anything).toEqual({ description: 'any value' });
  });
});
