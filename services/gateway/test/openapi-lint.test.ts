import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_DETAILS } from '../src/plugins/openapi-summaries';

/**
 * Issue 11, point 5: the OpenAPI document at /api/docs is what an ERP integrator generates a
 * client from, so it must pass Redocly's recommended rules with no error. The CLI itself lints
 * the served document (the same rules an integrator's pipeline would run), on a temp file.
 */
interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer?: string }[];
}

const run = promisify(execFile);
const redoclyCli = path.join(path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');

let server: TestServer;
let workDir: string;
interface Answer {
  $ref?: string;
  description?: string;
  content?: Record<string, { schema: unknown }>;
}
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: unknown[];
  responses: Record<string, Answer>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }>; responses: Record<string, Answer> };
}
let document: OpenApiDocument;

async function lint(openApi: unknown): Promise<LintProblem[]> {
  const file = path.join(workDir, 'openapi.json');
  writeFileSync(file, JSON.stringify(openApi));
  // The CLI exits 1 when it finds errors; the JSON report on stdout is what counts.
  const result = await run(process.execPath, [redoclyCli, 'lint', file, '--format=json', '--max-problems=10000'], {
    cwd: workDir,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  }).catch((error: { stdout?: string; stderr?: string }) => {
    if (!error.stdout) throw error;
    return { stdout: error.stdout, stderr: error.stderr ?? '' };
  });
  return (JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as { problems: LintProblem[] }).problems;
}

function describeProblem(problem: LintProblem): string {
  return `${problem.ruleId} at ${problem.location[0]?.pointer ?? '?'}: ${problem.message}`;
}

function operations(): { method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([route, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'].includes(method))
      .map(([method, operation]) => ({ method, path: route, operation })),
  );
}

/** An operation's answer for a status, following a $ref into components/responses. */
function response(operation: Operation, status: number | 'default'): Answer {
  const answer = operation.responses[status];
  const name = answer?.$ref?.replace('#/components/responses/', '');
  return (name === undefined ? answer : document.components.responses[name]) ?? {};
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(os.tmpdir(), 'eelarve-openapi-'));
  // The recommended rule set, whatever configuration a developer keeps elsewhere.
  writeFileSync(path.join(workDir, 'redocly.yaml'), 'extends:\n  - recommended\n');
  server = await startTestServer({ listen: false, worker: false });
  const response = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(response.statusCode).toBe(200);
  document = response.json();
});
afterAll(async () => {
  await server?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('the OpenAPI document (issue 11, point 5)', () => {
  it("passes Redocly's recommended rules with no error", async () => {
    const problems = await lint(document);
    const errors = problems.filter((problem) => problem.severity === 'error').map(describeProblem);
    expect(errors).toEqual([]);
  });

  it('gives every operation a unique operationId, a summary, tags and its error answers in the error model', () => {
    const all = operations();
    expect(all.length).toBeGreaterThan(100);
    const ids = all.map(({ operation }) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[A-Za-z][A-Za-z0-9]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { method, path: route, operation } of all) {
      const where = `${method.toUpperCase()} ${route}`;
      expect(operation.summary, where).toMatch(/\S/);
      expect(operation.tags?.length, where).toBeGreaterThan(0);
      expect(response(operation, 400).content?.['application/json']?.schema, where).toEqual({ $ref: '#/components/schemas/Error' });
      expect(response(operation, 'default').content?.['application/json']?.schema, where).toEqual({ $ref: '#/components/schemas/Error' });
    }
    expect(document.components.schemas.Error?.properties.code?.enum).toContain('SCHEMA_VALIDATION_ERROR');
    // The route facts the transforms pass along are not published.
    expect(JSON.stringify(document)).not.toContain('x-eelarve-');
  });

  it('declares the authentication errors where a session is needed and none on public calls', () => {
    const byRoute = new Map(operations().map((entry) => [`${entry.method} ${entry.path}`, entry.operation]));
    const organizations = byRoute.get('get /api/organizations');
    expect(organizations?.responses['401']).toBeDefined();
    expect(organizations?.responses['403']).toBeDefined();
    const login = byRoute.get('post /initial/auth/login');
    expect(login?.security).toEqual([]);
    // Public, but a wrong password answers 401 (a written detail, openapi-summaries.ts).
    expect(login?.responses['401']).toBeDefined();
    expect(byRoute.get('post /public/auth/request-password-reset')?.responses['401']).toBeUndefined();
  });

  it('gives the written summaries to operations that exist, and the ERP routes their API key', () => {
    const byRoute = new Map(operations().map((entry) => [`${entry.method} ${entry.path}`, entry.operation]));
    for (const [key, details] of Object.entries(OPERATION_DETAILS)) {
      expect(byRoute.get(key)?.summary, key).toBe(details.summary);
    }
    const erpImport = byRoute.get('post /budgets/{budgetId}/import');
    expect(erpImport?.security).toEqual([{ budgetApiKey: [] }]);
    expect(Object.keys(erpImport?.responses ?? {})).toEqual(expect.arrayContaining(['202', '400', '401', '403', '404', '413', '422', 'default']));
  });

  it('keeps the operation ids stable: method and path, readable', () => {
    const byRoute = new Map(operations().map((entry) => [`${entry.method} ${entry.path}`, entry.operation]));
    expect(byRoute.get('get /api/organizations')?.operationId).toBe('getOrganizations');
    expect(byRoute.get('put /api/organization/{id}')?.operationId).toBe('putOrganizationById');
    expect(byRoute.get('delete /api/classifier/{classifierId}/item/{itemId}')?.operationId).toBe('deleteClassifierItemByItemId');
  });

  it('serves the same completed document as YAML', async () => {
    const yaml = await server.app.inject({ method: 'GET', url: '/api/docs/yaml' });
    expect(yaml.statusCode).toBe(200);
    expect(yaml.body).toContain('operationId: getOrganizations');
    expect(yaml.body).not.toContain('x-eelarve-error-statuses');
  });

  it('names the same parameter the same in the same path position, so no two paths differ only by a name', () => {
    const shapes = new Map<string, string>();
    for (const route of Object.keys(document.paths)) {
      const shape = route.replace(/\{[^}]+\}/g, '{}');
      expect(shapes.get(shape), `${route} and ${shapes.get(shape)}`).toBeUndefined();
      shapes.set(shape, route);
    }
  });
});
