import { randomBytes } from 'node:crypto';
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PEOPLE, isValidPersonalCode, type LocalEidProvider, s256Challenge, startLocalEidProvider } from '../src/index';

const CLIENT = { clientId: 'eelarve', clientSecret: 'top-secret' };
const REDIRECT = 'http://127.0.0.1:9/public/auth/pass-callback';

let provider: LocalEidProvider;
beforeAll(async () => {
  provider = await startLocalEidProvider({ ...CLIENT, redirectUris: [REDIRECT] });
});
afterAll(async () => provider?.close());

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256Challenge(verifier) };
}

function authorizeUrl(overrides: Record<string, string | undefined> = {}, challenge = pkce().challenge): string {
  const url = new URL(`${provider.issuer}/authorize`);
  const params: Record<string, string | undefined> = {
    client_id: CLIENT.clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'openid',
    state: 'state-1',
    nonce: 'nonce-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

/** Runs /authorize with the given automatic approval and returns the redirect back to the client. */
async function authorize(personalCode: string, overrides: Record<string, string | undefined> = {}, challenge?: string): Promise<URL> {
  provider.autoApprove = personalCode;
  try {
    const response = await fetch(authorizeUrl(overrides, challenge), { redirect: 'manual' });
    expect(response.status).toBe(302);
    return new URL(response.headers.get('location')!);
  } finally {
    provider.autoApprove = undefined;
  }
}

function basic(id = CLIENT.clientId, secret = CLIENT.clientSecret): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

async function token(params: Record<string, string>, headers: Record<string, string> = { authorization: basic() }) {
  const response = await fetch(`${provider.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

async function codeFor(personalCode = '38001085718') {
  const { verifier, challenge } = pkce();
  const back = await authorize(personalCode, {}, challenge);
  return { code: back.searchParams.get('code')!, verifier, back };
}

describe('personal codes', () => {
  it('accepts the demo people and rejects bad check digits, dates and lengths', () => {
    for (const person of DEMO_PEOPLE) expect(isValidPersonalCode(person.personalCode)).toBe(true);
    expect(isValidPersonalCode('38001085718')).toBe(true);
    expect(isValidPersonalCode('38001085717')).toBe(false);
    expect(isValidPersonalCode('38002305713')).toBe(false); // 30 February
    expect(isValidPersonalCode('3800108571')).toBe(false);
    expect(isValidPersonalCode('78001085718')).toBe(false);
  });
});

describe('discovery and keys', () => {
  it('publishes its endpoints and an RS256 signing key', async () => {
    const document = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(document.issuer).toBe(provider.issuer);
    expect(document.token_endpoint).toBe(`${provider.issuer}/token`);
    expect(document.code_challenge_methods_supported).toEqual(['S256']);
    const jwks = (await (await fetch(String(document.jwks_uri))).json()) as JSONWebKeySet;
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });
});

describe('authorization code flow', () => {
  it('issues a code for the approved person and an RS256 id token for it', async () => {
    const { code, verifier, back } = await codeFor('38001085718');
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('state-1');
    expect(back.searchParams.get('iss')).toBe(provider.issuer);
    const { status, body } = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
    expect(status).toBe(200);
    expect(body.token_type).toBe('Bearer');
    const jwks = (await (await fetch(`${provider.issuer}/jwks`)).json()) as JSONWebKeySet;
    const { payload, protectedHeader } = await jwtVerify(body.id_token!, createLocalJWKSet(jwks), { issuer: provider.issuer, audience: CLIENT.clientId });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({ sub: 'EE38001085718', given_name: 'Mari', family_name: 'Maasikas', nonce: 'nonce-1' });
    expect(payload.exp! - payload.iat!).toBeGreaterThan(0);
  });

  it('accepts client_secret_post as well as client_secret_basic', async () => {
    const { code, verifier } = await codeFor();
    const { status } = await token(
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
      },
      {},
    );
    expect(status).toBe(200);
  });

  it('refuses a wrong client secret, missing client authentication and two methods at once', async () => {
    const { code, verifier } = await codeFor();
    const params = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier };
    expect(await token(params, { authorization: basic(CLIENT.clientId, 'wrong') })).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(await token(params, {})).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(await token({ ...params, client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
  });

  it('refuses a code with another redirect_uri', async () => {
    const { code, verifier } = await codeFor();
    const result = await token({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:9/other', code_verifier: verifier });
    expect(result).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('refuses an expired code', async () => {
    const { code, verifier } = await codeFor();
    const realNow = provider.now;
    provider.now = () => realNow() + 61_000;
    try {
      const result = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
      expect(result).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringMatching(/unknown|expired/) } });
    } finally {
      provider.now = realNow;
    }
  });
});

describe('PKCE', () => {
  it('refuses a wrong code_verifier', async () => {
    const { code } = await codeFor();
    const result = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: pkce().verifier });
    expect(result).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringContaining('code_verifier') } });
  });

  it('refuses a missing code_verifier', async () => {
    const { code } = await codeFor();
    expect(await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('requires an S256 code_challenge on the authorization request', async () => {
    for (const overrides of [
      { code_challenge: undefined },
      { code_challenge_method: 'plain' },
      { code_challenge_method: undefined },
      { code_challenge: 'short' },
    ]) {
      const back = await authorize('38001085718', overrides);
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('code')).toBeNull();
    }
  });
});

describe('one-time codes', () => {
  it('redeems a code once only', async () => {
    const { code, verifier } = await codeFor();
    const params = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier };
    expect((await token(params)).status).toBe(200);
    expect(await token(params)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('burns a code presented with a wrong verifier, so a later right one fails too', async () => {
    const { code, verifier } = await codeFor();
    expect((await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: pkce().verifier })).status).toBe(400);
    expect((await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier })).status).toBe(400);
  });
});

describe('authorization request validation', () => {
  it('never redirects to an unregistered redirect_uri or for an unknown client', async () => {
    for (const overrides of [{ redirect_uri: 'https://evil.example/callback' }, { client_id: 'someone-else' }]) {
      const response = await fetch(authorizeUrl(overrides), { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    }
  });

  it('requires state, nonce, openid scope and response_type=code', async () => {
    expect((await authorize('38001085718', { state: undefined })).searchParams.get('error')).toBe('invalid_request');
    expect((await authorize('38001085718', { nonce: undefined })).searchParams.get('error')).toBe('invalid_request');
    expect((await authorize('38001085718', { scope: 'profile' })).searchParams.get('error')).toBe('invalid_scope');
    expect((await authorize('38001085718', { response_type: 'token' })).searchParams.get('error')).toBe('unsupported_response_type');
  });
});

describe('approval page', () => {
  async function openPage(): Promise<string> {
    const response = await fetch(authorizeUrl(), { redirect: 'manual' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('Mari Maasikas');
    expect(html).toContain('38001085718');
    return /name="transaction" value="([^"]+)"/.exec(html)![1]!;
  }

  async function decide(fields: Record<string, string>) {
    return fetch(`${provider.issuer}/authorize/decision`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
  }

  it('approves a preset person or a typed personal code', async () => {
    const preset = await decide({ transaction: await openPage(), personal_code: '49005151237', action: 'approve' });
    expect(preset.status).toBe(302);
    expect(new URL(preset.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    const typed = await decide({ transaction: await openPage(), personal_code: 'other', other_code: '61203040231', action: 'approve' });
    expect(typed.status).toBe(302);
  });

  it('shows the page again for an invalid personal code and answers access_denied on cancel', async () => {
    const transaction = await openPage();
    const invalid = await decide({ transaction, personal_code: 'other', other_code: '12345678901', action: 'approve' });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain('Invalid personal code');
    const cancelled = await decide({ transaction, action: 'cancel' });
    expect(cancelled.status).toBe(302);
    const back = new URL(cancelled.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('state-1');
    // The transaction is gone once decided.
    expect((await decide({ transaction, personal_code: '38001085718', action: 'approve' })).status).toBe(400);
  });
});
