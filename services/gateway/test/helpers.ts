import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

export interface Client {
  cookie: string;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
}

/** Signs in through the real login route and returns a client carrying the session cookie. */
export async function login(app: FastifyInstance, username: string, password: string): Promise<Client> {
  const response = await app.inject({ method: 'POST', url: '/initial/auth/login', payload: { username, password } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  const cookie = response.cookies.find((candidate) => candidate.name === 'eelarve_session');
  if (!cookie) throw new Error('no session cookie');
  const header = `${cookie.name}=${cookie.value}`;
  return {
    cookie: header,
    request: (options) => app.inject({ ...options, headers: { ...(options.headers ?? {}), cookie: header } }),
  };
}

export const validOrganization = {
  name: 'Pärnu Linnavalitsus',
  localeCode: 'et',
  localeSettings: { language: 'et', dateFormat: 'dd.MM.yyyy', decimalSeparator: 'comma', decimalPlaces: '2', presetResourceStatusIds: 'default' },
  enableResourceStatuses: false,
  allowResourceStatusEditing: false,
  allowedAuthenticationTypes: ['LOGIN', 'PASS'],
  apiUsageAllowed: true,
  sessionLength: 30,
  sessionLengthMultiplier: 86_400_000,
};
