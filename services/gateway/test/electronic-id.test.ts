import { randomBytes, randomUUID } from 'node:crypto';
import { userDecider } from '@eelarve/domain';
import type { LocalEidProvider } from '@eelarve/eid-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserById } from '@eelarve/projections/accounts/queries';
import { readModels } from '../src/infrastructure/database';
import { FLOW_COOKIE, type Flow, openFlow, sealFlow } from '../src/features/electronic-id/flow-cookie';
import { callbackUrl } from '../src/features/electronic-id/locations';
import { issueToken } from '../src/features/registration/tokens';
import { executeCommand } from '../src/infrastructure/commands';
import { startTestServer, type TestServer } from '@eelarve/testing/server';

const ADMIN_CODE = '38001085718'; // Mari Maasikas
const NEW_USER_CODE = '49005151237'; // Liis Kask
const UNKNOWN_CODE = '37605030299'; // Jaan Tamm, bound to no one

let server: TestServer;
let provider: LocalEidProvider;
beforeAll(async () => {
  server = await startTestServer({ listen: true, config: { webDist: undefined }, eid: true });
  provider = server.eid!;
});
afterAll(async () => server?.close());

interface StoredCookie {
  value: string;
  path: string;
  attributes: string;
}

/**
 * A browser as far as these flows need one: a cookie jar for the gateway (paths respected) and
 * redirects followed by hand, across the gateway and the provider, until a page of the web client.
 */
class Browser {
  readonly cookies = new Map<string, StoredCookie>();

  private get gateway(): URL {
    return new URL(server.url);
  }

  private store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(';').map((part) => part.trim());
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      const path = attributes.find((attribute) => attribute.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const expired = attributes.some(
        (attribute) => /^max-age=0$/i.test(attribute) || (/^expires=/i.test(attribute) && Date.parse(attribute.slice(8)) <= Date.now()),
      );
      if (expired || value === '') this.cookies.delete(name!);
      else this.cookies.set(name!, { value, path, attributes: attributes.join('; ') });
    }
  }

  private cookieHeader(url: URL): string | undefined {
    if (url.origin !== this.gateway.origin) return undefined;
    const matching = [...this.cookies].filter(
      ([, cookie]) =>
        url.pathname === cookie.path || url.pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`) || cookie.path === '/',
    );
    return matching.length ? matching.map(([name, cookie]) => `${name}=${cookie.value}`).join('; ') : undefined;
  }

  async request(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url, server.url);
    const cookie = this.cookieHeader(target);
    const response = await fetch(target, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    if (target.origin === this.gateway.origin) this.store(response);
    return response;
  }

  /**
   * Follows redirects from `start`. Stops at a web-client page (returns its path and query), or
   * earlier where `stopAt` says so (returns the absolute URL not yet requested).
   */
  async navigate(start: string, stopAt?: (url: URL) => boolean): Promise<string> {
    let current = new URL(start, server.url);
    for (let hop = 0; hop < 10; hop++) {
      if (stopAt?.(current)) return current.toString();
      if (current.origin === this.gateway.origin && !/^\/(api|public|initial)\//.test(current.pathname)) return `${current.pathname}${current.search}`;
      const response = await this.request(current);
      if (response.status !== 302 && response.status !== 303)
        throw new Error(`expected a redirect from ${current}, got ${response.status}: ${await response.text()}`);
      current = new URL(response.headers.get('location')!, current);
    }
    throw new Error('too many redirects');
  }

  async me(): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await this.request('/api/auth/me');
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
}

const atCallback = (url: URL) => url.pathname === '/public/auth/pass-callback';

async function passwordBrowser(): Promise<Browser> {
  const browser = new Browser();
  const response = await browser.request('/initial/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: server.admin.email, password: server.admin.password }),
  });
  expect(response.status).toBe(200);
  return browser;
}

/** Runs a whole flow in `browser` with the provider approving `personalCode` at once. */
async function flow(browser: Browser, start: string, personalCode: string): Promise<string> {
  provider.autoApprove = personalCode;
  try {
    return await browser.navigate(start);
  } finally {
    provider.autoApprove = undefined;
  }
}

/** Runs a flow up to the provider's redirect back to the gateway, without following it. */
async function callbackFor(browser: Browser, start: string, personalCode: string): Promise<URL> {
  provider.autoApprove = personalCode;
  try {
    return new URL(await browser.navigate(start, atCallback));
  } finally {
    provider.autoApprove = undefined;
  }
}

async function bindingOf(userId: string) {
  return server.app.db.selectFrom('operational.electronic_ids').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

let adminId: string;

describe('binding from account settings', () => {
  it('needs a signed-in user', async () => {
    const response = await new Browser().request('/api/auth/pass-bind');
    expect(response.status).toBe(401);
  });

  it('sets a sealed HttpOnly flow cookie and sends the browser to the provider with PKCE, state and nonce', async () => {
    const browser = await passwordBrowser();
    const response = await browser.request('/api/auth/pass-bind');
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${provider.issuer}/authorize`);
    expect(location.searchParams.get('client_id')).toBe(server.app.config.oidc!.clientId);
    expect(location.searchParams.get('redirect_uri')).toBe(`${server.url}/public/auth/pass-callback`);
    expect(location.searchParams.get('response_type')).toBe('code');
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('nonce')).toBeTruthy();
    const cookie = browser.cookies.get(FLOW_COOKIE)!;
    expect(cookie.path).toBe('/public/auth/pass-callback');
    expect(cookie.attributes).toMatch(/HttpOnly/i);
    expect(cookie.attributes).toMatch(/SameSite=Lax/i);
    expect(cookie.attributes).toMatch(/Max-Age=600/i);
    // Sealed: neither the state nor the verifier can be read from it.
    expect(Buffer.from(cookie.value, 'base64url').toString('latin1')).not.toContain(location.searchParams.get('state')!);
  });

  it('binds the personal code to the signed-in user and comes back with the success flag', async () => {
    const browser = await passwordBrowser();
    adminId = (await browser.me()).body.id as string;
    expect(await flow(browser, '/api/auth/pass-bind', ADMIN_CODE)).toBe('/account?eidBound=true');
    const row = await bindingOf(adminId);
    expect(row?.bound_at).toBeInstanceOf(Date);
    // Only a keyed hash is stored, never the code.
    expect(row!.personal_code_hash).toHaveLength(32);
    expect(row!.personal_code_hash.toString('latin1')).not.toContain(ADMIN_CODE);
    const events = await server.app.store.readStream(`user-${adminId}`);
    expect(events.at(-1)?.type).toBe('UserElectronicIdBound');
    expect(browser.cookies.has(FLOW_COOKIE)).toBe(false);
  });

  it('goes through the approval page as a person would', async () => {
    const browser = await passwordBrowser();
    const page = await browser.navigate('/api/auth/pass-bind', (url) => url.origin === provider.issuer);
    const html = await (await fetch(page)).text();
    const transaction = /name="transaction" value="([^"]+)"/.exec(html)![1]!;
    const decision = await fetch(`${provider.issuer}/authorize/decision`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ transaction, personal_code: ADMIN_CODE, action: 'approve' }),
    });
    expect(decision.status).toBe(302);
    // Binding the same code again changes nothing and still succeeds.
    expect(await browser.navigate(decision.headers.get('location')!)).toBe('/account?eidBound=true');
  });

  it('refuses a callback that no longer comes with the session that started the binding', async () => {
    const browser = await passwordBrowser();
    const callback = await callbackFor(browser, '/api/auth/pass-bind', UNKNOWN_CODE);
    const logout = await browser.request('/api/auth/logout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(logout.status).toBe(204);
    expect(await browser.navigate(callback.toString())).toBe('/account?eidError=true&eidReason=SESSION_CHANGED');
    expect(await server.app.db.selectFrom('operational.electronic_ids').select('user_id').execute()).toHaveLength(1);
  });
});

describe('signing in with the electronic ID', () => {
  it('signs the bound user in with authentication type PASS and enters the only occupation allowing PASS', async () => {
    const browser = new Browser();
    expect(await flow(browser, '/public/auth/pass-login', ADMIN_CODE)).toBe('/');
    const me = await browser.me();
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: adminId, authenticationType: 'PASS' });
    expect(me.body.occupationId).not.toBeNull();
    expect(browser.cookies.get('eelarve_session')?.attributes).toMatch(/HttpOnly/i);
  });

  it('returns to a path on this site given as redirect, and ignores any other address', async () => {
    expect(await flow(new Browser(), '/public/auth/pass-login?redirect=%2Fusers%3Ftab%3Doccupations', ADMIN_CODE)).toBe('/users?tab=occupations');
    expect(await flow(new Browser(), `/public/auth/pass-login?redirect=${encodeURIComponent('https://evil.example/')}`, ADMIN_CODE)).toBe('/');
    expect(await flow(new Browser(), `/public/auth/pass-login?redirect=${encodeURIComponent('//evil.example/x')}`, ADMIN_CODE)).toBe('/');
  });

  it('answers an unknown personal code with the failure flag and no session', async () => {
    const browser = new Browser();
    expect(await flow(browser, '/public/auth/pass-login', UNKNOWN_CODE)).toBe('/login?eidError=true&eidReason=USER_NOT_FOUND');
    expect(browser.cookies.has('eelarve_session')).toBe(false);
    expect((await browser.me()).status).toBe(401);
  });

  it('answers a cancellation at the provider with the failure flag', async () => {
    const browser = new Browser();
    const page = await browser.navigate('/public/auth/pass-login', (url) => url.origin === provider.issuer);
    const transaction = /name="transaction" value="([^"]+)"/.exec(await (await fetch(page)).text())![1]!;
    const decision = await fetch(`${provider.issuer}/authorize/decision`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ transaction, action: 'cancel' }),
    });
    expect(await browser.navigate(decision.headers.get('location')!)).toBe('/login?eidError=true&eidReason=CANCELLED');
  });
});

describe('what the callback refuses', () => {
  const refused = '/login?eidError=true&eidReason=FAILED';

  it('a tampered state', async () => {
    const browser = new Browser();
    const callback = await callbackFor(browser, '/public/auth/pass-login', ADMIN_CODE);
    callback.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    expect(await browser.navigate(callback.toString())).toBe(refused);
    expect(browser.cookies.has('eelarve_session')).toBe(false);
  });

  it('a tampered or missing flow cookie', async () => {
    const browser = new Browser();
    const callback = await callbackFor(browser, '/public/auth/pass-login', ADMIN_CODE);
    const cookie = browser.cookies.get(FLOW_COOKIE)!;
    const bytes = Buffer.from(cookie.value, 'base64url');
    bytes[bytes.length - 1]! ^= 1;
    browser.cookies.set(FLOW_COOKIE, { ...cookie, value: bytes.toString('base64url') });
    expect(await browser.navigate(callback.toString())).toBe(refused);
    // The same provider answer in a browser that did not start the flow.
    const other = new Browser();
    const second = await callbackFor(new Browser(), '/public/auth/pass-login', ADMIN_CODE);
    expect(await other.navigate(second.toString())).toBe(refused);
    expect(other.cookies.has('eelarve_session')).toBe(false);
  });

  it('an id token with another nonce, audience or issuer, though validly signed', async () => {
    for (const alter of [
      (claims: Record<string, unknown>) => ({ ...claims, nonce: 'another-nonce' }),
      (claims: Record<string, unknown>) => ({ ...claims, aud: 'another-client' }),
      (claims: Record<string, unknown>) => ({ ...claims, iss: 'http://127.0.0.1:1' }),
      (claims: Record<string, unknown>) => ({ ...claims, sub: 'LV38001085718' }),
    ]) {
      provider.alterIdTokenClaims = alter;
      try {
        const browser = new Browser();
        expect(await flow(browser, '/public/auth/pass-login', ADMIN_CODE)).toBe(refused);
        expect(browser.cookies.has('eelarve_session')).toBe(false);
      } finally {
        provider.alterIdTokenClaims = undefined;
      }
    }
  });

  it('an expired authorization code', async () => {
    const browser = new Browser();
    const callback = await callbackFor(browser, '/public/auth/pass-login', ADMIN_CODE);
    const realNow = provider.now;
    provider.now = () => realNow() + 5 * 60 * 1000;
    try {
      expect(await browser.navigate(callback.toString())).toBe(refused);
    } finally {
      provider.now = realNow;
    }
  });

  it('a replayed authorization code, even with the flow cookie put back', async () => {
    const browser = new Browser();
    const callback = await callbackFor(browser, '/public/auth/pass-login', ADMIN_CODE);
    const cookie = browser.cookies.get(FLOW_COOKIE)!;
    expect(await browser.navigate(callback.toString())).toBe('/');
    browser.cookies.set(FLOW_COOKIE, cookie);
    browser.cookies.delete('eelarve_session');
    expect(await browser.navigate(callback.toString())).toBe(refused);
    expect(browser.cookies.has('eelarve_session')).toBe(false);
  });

  it('an expired flow cookie', async () => {
    const key = randomBytes(32);
    const flow: Flow = {
      mode: 'login',
      issuer: provider.issuer,
      state: 's',
      nonce: 'n',
      codeVerifier: 'v',
      redirectUri: `${server.url}/public/auth/pass-callback`,
      expiresAt: Date.now() + 1_000,
    };
    const sealed = sealFlow(flow, key);
    expect(openFlow(sealed, key)).toEqual(flow);
    expect(openFlow(sealed, key, Date.now() + 2_000)).toBeNull();
    expect(openFlow(sealed, randomBytes(32))).toBeNull();
    expect(openFlow(`${sealed.slice(0, -2)}AA`, key)).toBeNull();
  });

  it('an electronic ID that is not configured', async () => {
    const oidc = server.app.config.oidc;
    server.app.config.oidc = undefined;
    try {
      expect(await new Browser().navigate('/public/auth/pass-login')).toBe('/login?eidError=true&eidReason=NOT_CONFIGURED');
    } finally {
      server.app.config.oidc = oidc;
    }
  });
});

describe('registration with the electronic ID instead of a password', () => {
  let newUserId: string;

  beforeAll(async () => {
    const admin = (await findUserById(readModels(server.app.db), adminId))!;
    newUserId = randomUUID();
    const actor = { correlationId: randomUUID(), userId: adminId, occupationId: null, organizationId: admin.organization_id };
    const command = {
      type: 'RegisterUser' as const,
      userId: newUserId,
      organizationId: admin.organization_id,
      name: 'Liis Kask',
      email: `liis.${newUserId}@example.com`,
      now: new Date(),
    };
    const outcome = await executeCommand(server.app.store, userDecider, command, actor);
    await server.app.projections.waitForPosition(['accounts'], outcome.position!, 10_000);
  });

  it('refuses an unknown token before going to the provider', async () => {
    expect(await new Browser().navigate('/public/auth/pass-confirm?token=not-a-token&type=REGISTRATION')).toBe(
      '/confirm?token=not-a-token&type=REGISTRATION&eidError=true&eidReason=INVALID_TOKEN',
    );
  });

  it('keeps the token usable when the personal code is already bound to another user', async () => {
    const token = await issueToken(server.app.db, newUserId, 'REGISTRATION');
    const location = await flow(new Browser(), `/public/auth/pass-confirm?token=${token}&type=REGISTRATION`, ADMIN_CODE);
    expect(location).toBe(`/confirm?token=${token}&type=REGISTRATION&eidError=true&eidReason=PERSONAL_CODE_IN_USE`);
    expect(await bindingOf(newUserId)).toBeUndefined();
    // The token was not spent: the same link still works.
    expect(await flow(new Browser(), `/public/auth/pass-confirm?token=${token}&type=REGISTRATION`, NEW_USER_CODE)).toBe('/login?registered=true');
    expect((await findUserById(readModels(server.app.db), newUserId))?.confirmed_at).toBeInstanceOf(Date);
    expect(await bindingOf(newUserId)).toBeDefined();
    // Single use.
    expect(await new Browser().navigate(`/public/auth/pass-confirm?token=${token}&type=REGISTRATION`)).toContain('eidReason=INVALID_TOKEN');
  });

  it('then signs in with the electronic ID; without a PASS occupation the user chooses one', async () => {
    const browser = new Browser();
    expect(await flow(browser, '/public/auth/pass-login', NEW_USER_CODE)).toBe('/select-occupation');
    expect((await browser.me()).body).toMatchObject({ id: newUserId, authenticationType: 'PASS', occupationId: null });
  });

  it('binds with a password-reset token as well', async () => {
    const token = await issueToken(server.app.db, newUserId, 'RESET');
    expect(await flow(new Browser(), `/public/auth/pass-confirm?token=${token}&type=RESET`, NEW_USER_CODE)).toBe('/login?reset=true');
    const failed = await flow(new Browser(), `/public/auth/pass-confirm?token=${token}&type=RESET`, NEW_USER_CODE);
    expect(failed).toBe(`/update-password?token=${token}&type=RESET&eidError=true&eidReason=INVALID_TOKEN`);
  });

  it('refuses to bind a personal code that another user has, from account settings', async () => {
    const browser = await passwordBrowser();
    expect(await flow(browser, '/api/auth/pass-bind', NEW_USER_CODE)).toBe('/account?eidError=true&eidReason=PERSONAL_CODE_IN_USE');
    const stillMine = await flow(new Browser(), '/public/auth/pass-login', NEW_USER_CODE);
    expect(stillMine).toBe('/select-occupation');
  });
});

describe('unbinding', () => {
  it('needs a signed-in user', async () => {
    const response = await new Browser().request('/api/auth/unbind', { method: 'PUT' });
    expect(response.status).toBe(401);
  });

  it('removes the binding, records it, and the code no longer signs anyone in', async () => {
    const browser = await passwordBrowser();
    const response = await browser.request('/api/auth/unbind', { method: 'PUT' });
    expect(response.status).toBe(204);
    expect(await bindingOf(adminId)).toBeUndefined();
    const events = await server.app.store.readStream(`user-${adminId}`);
    expect(events.at(-1)?.type).toBe('UserElectronicIdUnbound');
    expect(await flow(new Browser(), '/public/auth/pass-login', ADMIN_CODE)).toBe('/login?eidError=true&eidReason=USER_NOT_FOUND');
    // Unbinding twice is harmless.
    expect((await browser.request('/api/auth/unbind', { method: 'PUT' })).status).toBe(204);
  });
});

describe('redirect log', () => {
  it('answers 204', async () => {
    const response = await new Browser().request('/public/auth/pass-redirect-log', { headers: { 'x-request-id': 'eid-redirect-1' } });
    expect(response.status).toBe(204);
    expect(response.headers.get('x-request-id')).toBe('eid-redirect-1');
  });
});

describe('redirect URI', () => {
  it('is under PUBLIC_URL, or on the loopback alias the browser used outside production', () => {
    const development = { publicUrl: 'http://localhost:3000', environment: 'development' as const };
    expect(callbackUrl(development, { protocol: 'http', host: 'localhost:3000' })).toBe('http://localhost:3000/public/auth/pass-callback');
    expect(callbackUrl(development, { protocol: 'http', host: '127.0.0.1:3000' })).toBe('http://127.0.0.1:3000/public/auth/pass-callback');
    expect(callbackUrl(development, { protocol: 'http', host: 'evil.example:3000' })).toBe('http://localhost:3000/public/auth/pass-callback');
    expect(callbackUrl(development, { protocol: 'http', host: '127.0.0.1:3001' })).toBe('http://localhost:3000/public/auth/pass-callback');
    const production = { publicUrl: 'https://eelarve.example.ee/', environment: 'production' as const };
    expect(callbackUrl(production, { protocol: 'http', host: '10.0.0.5:3000' })).toBe('https://eelarve.example.ee/public/auth/pass-callback');
  });
});
