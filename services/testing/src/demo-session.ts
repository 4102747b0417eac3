import type { FastifyInstance, InjectOptions } from 'fastify';
import { sessionCookieName } from '@eelarve/gateway/features/auth/sessions';

/**
 * The demo data is made through the product's own HTTP routes as the bootstrap administrator,
 * working in the demo organisation's ADMIN occupation, so every rule of the product applies.
 */
export interface DemoSession {
  /** Any call; throws unless it answers `expected` (200 by default). */
  call(options: InjectOptions, expected?: number): Promise<{ id?: string } & Record<string, unknown>>;
  /** A create (201), answering the new id. */
  post(url: string, payload: object): Promise<string>;
  put(url: string, payload: object): Promise<Record<string, unknown>>;
}

async function signIn(app: FastifyInstance): Promise<DemoSession['call']> {
  if (!app.config.bootstrapAdmin) throw new Error('demo data needs the bootstrap administrator (BOOTSTRAP_ADMIN_EMAIL and _PASSWORD)');
  const { email, password } = app.config.bootstrapAdmin;
  const login = await app.inject({ method: 'POST', url: '/initial/auth/login', payload: { username: email, password } });
  const cookie = login.cookies.find((candidate) => candidate.name === sessionCookieName(app.config));
  if (login.statusCode !== 200 || !cookie) throw new Error(`demo sign-in failed: ${login.statusCode}`);
  return async (options, expected = 200) => {
    const response = await app.inject({ ...options, headers: { ...(options.headers ?? {}), cookie: `${cookie.name}=${cookie.value}` } });
    if (response.statusCode !== expected) throw new Error(`demo ${options.method} ${options.url}: ${response.statusCode} ${response.body}`);
    return response.body ? response.json() : {};
  };
}

/** Signs the administrator in, gives them the organisation's ADMIN occupation and switches to it. */
export async function administratorSession(app: FastifyInstance, organizationId: string): Promise<DemoSession> {
  const call = await signIn(app);
  await call({ method: 'POST', url: `/api/admin/${organizationId}` });
  const me = await call({ method: 'GET', url: '/api/auth/me' });
  const occupations = (me.occupations ?? []) as { id: string; organizationId: string }[];
  const occupation = occupations.find((candidate) => candidate.organizationId === organizationId);
  if (!occupation) throw new Error('demo: no occupation in the organisation');
  await call({ method: 'POST', url: '/api/auth/switch', payload: { occupationId: occupation.id } });
  return {
    call,
    post: async (url, payload) => (await call({ method: 'POST', url, payload }, 201)).id as string,
    put: (url, payload) => call({ method: 'PUT', url, payload }),
  };
}
