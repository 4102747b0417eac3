import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';
import { approvalPage, errorPage, indexPage } from './pages';
import { DEMO_PEOPLE, type DemoPerson, isValidPersonalCode } from './personal-code';

export interface LocalEidProviderOptions {
  /** 0 or absent: a free port. */
  port?: number;
  /** Listening address; 127.0.0.1 unless given. */
  host?: string;
  clientId: string;
  clientSecret: string;
  /** Exact redirect URIs the client may use (no prefix or wildcard matching). */
  redirectUris: string[];
  /** A personal code approved at once, without the approval page (for tests). */
  autoApprove?: string;
  /** People offered on the approval page; DEMO_PEOPLE unless given. */
  people?: readonly DemoPerson[];
  codeLifetimeSeconds?: number;
  idTokenLifetimeSeconds?: number;
  /** Milliseconds since the epoch; Date.now unless given. */
  now?: () => number;
}

export interface LocalEidProvider {
  /** `http://host:port`, the `iss` of its tokens and the base of its discovery document. */
  readonly issuer: string;
  readonly port: number;
  /** The registered redirect URIs; may be changed while running. */
  redirectUris: string[];
  /** Personal code approved without the page; may be changed while running (tests). */
  autoApprove: string | undefined;
  /** The provider's clock; tests move it to expire codes. */
  now: () => number;
  /**
   * Test hook: rewrites the id token's claims before signing, to play a provider that answers
   * with a wrong nonce, audience or subject. The signature stays valid.
   */
  alterIdTokenClaims: ((claims: JWTPayload) => JWTPayload) | undefined;
  close(): Promise<void>;
}

interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  state: string;
  nonce: string;
  codeChallenge: string;
  scope: string;
  expiresAt: number;
}

interface IssuedCode extends Omit<AuthorizationRequest, 'state'> {
  person: DemoPerson;
  authTime: number;
}

const PENDING_LIFETIME_MS = 10 * 60 * 1000;
const MAX_BODY_BYTES = 16 * 1024;
const PKCE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_PARAMETER_LENGTH = 1024;

/** base64url(SHA-256(verifier)): the S256 code challenge (RFC 7636, section 4.2). */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

function safeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

/** Parameters given once each; a repeated one is an invalid request (RFC 6749, section 3.1). */
function singleParameters(params: URLSearchParams): Map<string, string> {
  const result = new Map<string, string>();
  for (const [key, value] of params) {
    if (result.has(key)) throw new OAuthError('invalid_request', `parameter ${key} repeated`);
    if (value.length > MAX_PARAMETER_LENGTH) throw new OAuthError('invalid_request', `parameter ${key} too long`);
    result.set(key, value);
  }
  return result;
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new OAuthError('invalid_request', 'body must be application/x-www-form-urlencoded');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new OAuthError('invalid_request', 'body too large');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function send(response: ServerResponse, status: number, body: string, headers: Record<string, string>): void {
  response.writeHead(status, { 'cache-control': 'no-store', pragma: 'no-cache', 'x-content-type-options': 'nosniff', ...headers });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  send(response, status, JSON.stringify(body), { 'content-type': 'application/json; charset=utf-8', ...headers });
}

function sendHtml(response: ServerResponse, status: number, html: string): void {
  send(response, status, html, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    'referrer-policy': 'no-referrer',
  });
}

function redirect(response: ServerResponse, location: string): void {
  send(response, 302, '', { location });
}

function withQuery(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

/** client_secret_basic: form-urlencoded id and secret joined by a colon (RFC 6749, section 2.3.1). */
function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | null {
  if (!header?.toLowerCase().startsWith('basic ')) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError('invalid_client', 'malformed basic credentials', 401);
  const decode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));
  try {
    return { clientId: decode(decoded.slice(0, colon)), clientSecret: decode(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError('invalid_client', 'malformed basic credentials', 401);
  }
}

/**
 * A small but real OpenID Connect provider standing in for the national electronic-ID service:
 * authorization code flow with PKCE (S256 only), state and nonce required, one-time codes,
 * client_secret_basic or client_secret_post, RS256 id tokens whose `sub` is `EE` + personal code.
 */
export async function startLocalEidProvider(options: LocalEidProviderOptions): Promise<LocalEidProvider> {
  const host = options.host ?? '127.0.0.1';
  const people = options.people ?? DEMO_PEOPLE;
  const codeLifetimeMs = (options.codeLifetimeSeconds ?? 60) * 1000;
  const idTokenLifetimeSeconds = options.idTokenLifetimeSeconds ?? 600;
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const publicJwk: JWK = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const jwks = { keys: [{ ...publicJwk, kid, alg: 'RS256', use: 'sig' }] };

  const pending = new Map<string, AuthorizationRequest>();
  const codes = new Map<string, IssuedCode>();
  let issuer = '';

  const handle: LocalEidProvider = {
    get issuer() {
      return issuer;
    },
    get port() {
      return Number(new URL(issuer).port);
    },
    redirectUris: [...options.redirectUris],
    autoApprove: options.autoApprove,
    now: options.now ?? Date.now,
    alterIdTokenClaims: undefined,
    close: async () => {},
  };

  const prune = () => {
    const now = handle.now();
    for (const [key, value] of pending) if (value.expiresAt <= now) pending.delete(key);
    for (const [key, value] of codes) if (value.expiresAt <= now) codes.delete(key);
  };

  const personFor = (personalCode: string): DemoPerson =>
    people.find((person) => person.personalCode === personalCode) ?? { personalCode, givenName: 'Test', familyName: 'Isik' };

  const issueCode = (request: AuthorizationRequest, personalCode: string): string => {
    const code = randomToken();
    const { state: _state, ...rest } = request;
    codes.set(code, { ...rest, person: personFor(personalCode), authTime: Math.floor(handle.now() / 1000), expiresAt: handle.now() + codeLifetimeMs });
    return withQuery(request.redirectUri, { code, state: request.state, iss: issuer });
  };

  function discovery() {
    return {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      code_challenge_methods_supported: ['S256'],
      scopes_supported: ['openid', 'idcard'],
      claims_supported: ['sub', 'given_name', 'family_name', 'nonce', 'auth_time', 'amr', 'acr'],
      authorization_response_iss_parameter_supported: true,
    };
  }

  function authorize(url: URL, response: ServerResponse) {
    let params: Map<string, string>;
    try {
      params = singleParameters(url.searchParams);
    } catch (error) {
      return sendHtml(response, 400, errorPage((error as Error).message));
    }
    // Without a known client and one of its redirect URIs nothing may be redirected (RFC 6749, 4.1.2.1).
    const clientId = params.get('client_id') ?? '';
    const redirectUri = params.get('redirect_uri') ?? '';
    if (!safeEqual(clientId, options.clientId)) return sendHtml(response, 400, errorPage('Unknown client_id.'));
    if (!handle.redirectUris.includes(redirectUri)) return sendHtml(response, 400, errorPage('redirect_uri is not registered for this client.'));
    const state = params.get('state');
    const fail = (error: string, description: string) =>
      redirect(response, withQuery(redirectUri, { error, error_description: description, state, iss: issuer }));
    if (params.get('response_type') !== 'code') return fail('unsupported_response_type', 'only response_type=code is supported');
    const scope = params.get('scope') ?? '';
    if (!scope.split(' ').includes('openid')) return fail('invalid_scope', 'scope must include openid');
    if (!state) return fail('invalid_request', 'state is required');
    const nonce = params.get('nonce');
    if (!nonce) return fail('invalid_request', 'nonce is required');
    if (params.get('code_challenge_method') !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
    const codeChallenge = params.get('code_challenge') ?? '';
    if (!PKCE_CHALLENGE.test(codeChallenge)) return fail('invalid_request', 'code_challenge must be a base64url SHA-256 digest');

    const request: AuthorizationRequest = { clientId, redirectUri, state, nonce, codeChallenge, scope, expiresAt: handle.now() + PENDING_LIFETIME_MS };
    if (handle.autoApprove !== undefined) {
      if (!isValidPersonalCode(handle.autoApprove)) return fail('access_denied', 'the automatic personal code is not valid');
      return redirect(response, issueCode(request, handle.autoApprove));
    }
    const transaction = randomToken();
    pending.set(transaction, request);
    sendHtml(response, 200, approvalPage({ transaction, clientId, people }));
  }

  async function decide(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = await readForm(request);
    const transaction = form.get('transaction') ?? '';
    const authorization = pending.get(transaction);
    if (!authorization || authorization.expiresAt <= handle.now()) {
      pending.delete(transaction);
      return sendHtml(response, 400, errorPage('The sign-in request has expired. Start again from the application.'));
    }
    if (form.get('action') === 'cancel') {
      pending.delete(transaction);
      return redirect(
        response,
        withQuery(authorization.redirectUri, { error: 'access_denied', error_description: 'cancelled by the user', state: authorization.state, iss: issuer }),
      );
    }
    // A typed code wins over the preset radio: typing it is the clearer intent.
    const typed = (form.get('other_code') ?? '').trim();
    const chosen = form.get('personal_code') ?? '';
    const personalCode = typed || (chosen === 'other' ? '' : chosen.trim());
    if (!isValidPersonalCode(personalCode)) {
      return sendHtml(
        response,
        400,
        approvalPage({ transaction, clientId: authorization.clientId, people, error: 'Vigane isikukood / Invalid personal code', enteredCode: personalCode }),
      );
    }
    pending.delete(transaction);
    redirect(response, issueCode(authorization, personalCode));
  }

  async function token(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const params = singleParameters(await readForm(request));
    const basic = basicCredentials(request.headers.authorization);
    const posted = params.has('client_secret') ? { clientId: params.get('client_id') ?? '', clientSecret: params.get('client_secret') ?? '' } : null;
    if (basic && posted) throw new OAuthError('invalid_request', 'use one client authentication method');
    const client = basic ?? posted;
    if (!client) throw new OAuthError('invalid_client', 'client authentication required', 401);
    if (!safeEqual(client.clientId, options.clientId) || !safeEqual(client.clientSecret, options.clientSecret)) {
      throw new OAuthError('invalid_client', 'client authentication failed', 401);
    }
    if (basic && params.has('client_id') && params.get('client_id') !== basic.clientId) throw new OAuthError('invalid_request', 'client_id does not match');
    if (params.get('grant_type') !== 'authorization_code') throw new OAuthError('unsupported_grant_type', 'only authorization_code is supported');

    // One-time: a code is gone on its first presentation, whether or not the rest checks out.
    const code = params.get('code') ?? '';
    const issued = codes.get(code);
    codes.delete(code);
    if (!issued) throw new OAuthError('invalid_grant', 'unknown or used authorization code');
    if (issued.expiresAt <= handle.now()) throw new OAuthError('invalid_grant', 'authorization code expired');
    if (issued.clientId !== client.clientId) throw new OAuthError('invalid_grant', 'code issued to another client');
    if (params.get('redirect_uri') !== issued.redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
    const verifier = params.get('code_verifier') ?? '';
    if (!PKCE_VERIFIER.test(verifier) || !safeEqual(s256Challenge(verifier), issued.codeChallenge)) {
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
    }

    const now = Math.floor(handle.now() / 1000);
    let claims: JWTPayload = {
      iss: issuer,
      aud: issued.clientId,
      sub: `EE${issued.person.personalCode}`,
      given_name: issued.person.givenName,
      family_name: issued.person.familyName,
      nonce: issued.nonce,
      auth_time: issued.authTime,
      amr: ['idcard'],
      acr: 'high',
      iat: now,
      nbf: now,
      exp: now + idTokenLifetimeSeconds,
      jti: randomToken(),
    };
    if (handle.alterIdTokenClaims) claims = handle.alterIdTokenClaims(claims);
    const idToken = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(privateKey);
    sendJson(response, 200, { access_token: randomToken(), token_type: 'Bearer', expires_in: idTokenLifetimeSeconds, id_token: idToken, scope: issued.scope });
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    prune();
    const url = new URL(request.url ?? '/', issuer);
    const key = `${request.method} ${url.pathname}`;
    switch (key) {
      case 'GET /':
        return sendHtml(response, 200, indexPage(issuer));
      case 'GET /.well-known/openid-configuration':
        return sendJson(response, 200, discovery(), { 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' });
      case 'GET /jwks':
        return sendJson(response, 200, jwks, { 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' });
      case 'GET /authorize':
        return authorize(url, response);
      case 'POST /authorize/decision':
        return decide(request, response);
      case 'POST /token':
        try {
          return await token(request, response);
        } catch (error) {
          if (!(error instanceof OAuthError)) throw error;
          const headers: Record<string, string> = error.status === 401 ? { 'www-authenticate': 'Basic realm="eid"' } : {};
          return sendJson(response, error.status, { error: error.error, error_description: error.description }, headers);
        }
      default:
        return sendJson(response, 404, { error: 'not_found' });
    }
  }

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      if (response.headersSent) return response.destroy();
      if (error instanceof OAuthError) return sendHtml(response, error.status, errorPage(error.description));
      sendJson(response, 500, { error: 'server_error' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  issuer = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  handle.close = () =>
    new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    });
  return handle;
}
