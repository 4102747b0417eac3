import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { z } from 'zod';

/**
 * An OpenID Connect relying party for the national electronic-ID service: discovery, the
 * authorization code flow with PKCE (S256), state and nonce, and id-token verification against
 * the provider's published keys. It knows the provider only through the protocol.
 */

export interface OidcClientConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Why a round trip failed; `detail` is for the log only. */
export class ElectronicIdError extends Error {
  constructor(
    readonly reason: ElectronicIdFailure,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

export type ElectronicIdFailure =
  | 'FAILED'
  | 'CANCELLED'
  | 'USER_NOT_FOUND'
  | 'PERSONAL_CODE_IN_USE'
  | 'INVALID_TOKEN'
  | 'SESSION_CHANGED'
  | 'EMAIL_NOT_CONFIRMED'
  | 'NOT_CONFIGURED';

const metadataSchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
  id_token_signing_alg_values_supported: z.array(z.string()).optional(),
  authorization_response_iss_parameter_supported: z.boolean().optional(),
});

export type ProviderMetadata = z.infer<typeof metadataSchema>;

interface Discovered {
  metadata: ProviderMetadata;
  keys: JWTVerifyGetKey;
  expiresAt: number;
}

const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const HTTP_TIMEOUT_MS = 10_000;
const discovered = new Map<string, Promise<Discovered>>();

function withoutTrailingSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

async function fetchDiscovery(issuer: string): Promise<Discovered> {
  const url = `${withoutTrailingSlash(issuer)}/.well-known/openid-configuration`;
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
  } catch (error) {
    throw new ElectronicIdError('FAILED', `discovery unreachable: ${String(error)}`);
  }
  if (!response.ok) throw new ElectronicIdError('FAILED', `discovery answered ${response.status}`);
  const parsed = metadataSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new ElectronicIdError('FAILED', 'discovery document is malformed');
  // OpenID Connect Discovery 1.0, section 4.3: the document must name exactly the issuer asked for.
  if (parsed.data.issuer !== issuer) throw new ElectronicIdError('FAILED', `discovery names issuer ${parsed.data.issuer}, expected ${issuer}`);
  const methods = parsed.data.code_challenge_methods_supported;
  if (methods && !methods.includes('S256')) throw new ElectronicIdError('FAILED', 'provider does not support PKCE S256');
  return { metadata: parsed.data, keys: createRemoteJWKSet(new URL(parsed.data.jwks_uri)), expiresAt: Date.now() + DISCOVERY_TTL_MS };
}

/** The provider's metadata and keys, cached for an hour per issuer (keys refresh on an unknown kid). */
export async function discover(issuer: string): Promise<Discovered> {
  const cached = discovered.get(issuer);
  if (cached) {
    const value = await cached.catch(() => null);
    if (value && value.expiresAt > Date.now()) return value;
    if (discovered.get(issuer) === cached) discovered.delete(issuer);
  }
  const pending = fetchDiscovery(issuer);
  discovered.set(issuer, pending);
  pending.catch(() => {
    if (discovered.get(issuer) === pending) discovered.delete(issuer);
  });
  return pending;
}

export interface AuthorizationRequest {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  url: string;
}

function random(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** RFC 7636: a 43-character verifier and its S256 challenge. */
export function pkcePair(): { codeVerifier: string; codeChallenge: string } {
  const codeVerifier = random(32);
  return { codeVerifier, codeChallenge: createHash('sha256').update(codeVerifier, 'ascii').digest('base64url') };
}

/** A fresh state, nonce and PKCE verifier, and the provider address the browser is sent to. */
export function authorizationRequest(metadata: ProviderMetadata, config: OidcClientConfig, redirectUri: string): AuthorizationRequest {
  const state = random();
  const nonce = random();
  const { codeVerifier, codeChallenge } = pkcePair();
  const url = new URL(metadata.authorization_endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('scope', 'openid');
  url.searchParams.set('state', state);
  url.searchParams.set('nonce', nonce);
  url.searchParams.set('code_challenge', codeChallenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return { state, nonce, codeVerifier, redirectUri, url: url.toString() };
}

export function safeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}

const tokenResponseSchema = z.object({ id_token: z.string().min(1), token_type: z.string() });

/** Redeems the code at the token endpoint (client_secret_basic unless only _post is offered). */
export async function exchangeCode(
  metadata: ProviderMetadata,
  config: OidcClientConfig,
  input: { code: string; redirectUri: string; codeVerifier: string },
): Promise<string> {
  const body = new URLSearchParams({ grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, code_verifier: input.codeVerifier });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const methods = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  if (methods.includes('client_secret_basic')) {
    const credentials = `${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
  } else if (methods.includes('client_secret_post')) {
    body.set('client_id', config.clientId);
    body.set('client_secret', config.clientSecret);
  } else {
    throw new ElectronicIdError('FAILED', `no supported client authentication among ${methods.join(', ')}`);
  }
  let response: Response;
  try {
    response = await fetch(metadata.token_endpoint, { method: 'POST', headers, body, redirect: 'error', signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
  } catch (error) {
    throw new ElectronicIdError('FAILED', `token endpoint unreachable: ${String(error)}`);
  }
  const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!response.ok)
    throw new ElectronicIdError(
      'FAILED',
      `token endpoint answered ${response.status} ${String(json?.error ?? '')} ${String(json?.error_description ?? '')}`.trim(),
    );
  const parsed = tokenResponseSchema.safeParse(json);
  if (!parsed.success || parsed.data.token_type.toLowerCase() !== 'bearer') throw new ElectronicIdError('FAILED', 'token response is malformed');
  return parsed.data.id_token;
}

export interface VerifiedIdentity {
  /** Estonian personal code (isikukood), 11 digits. */
  personalCode: string;
  givenName: string | null;
  familyName: string | null;
}

/** The subject is the country code and the personal code: EE38001085718. */
const ESTONIAN_SUBJECT = /^EE(\d{11})$/;

/**
 * Checks the id token's RS256 signature against the provider's keys, its issuer, audience (and
 * azp when there are several), lifetime and the nonce sent with this very request.
 */
export async function verifyIdToken(keys: JWTVerifyGetKey, config: OidcClientConfig, idToken: string, expectedNonce: string): Promise<VerifiedIdentity> {
  let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
  try {
    ({ payload } = await jwtVerify(idToken, keys, {
      issuer: config.issuer,
      audience: config.clientId,
      algorithms: ['RS256'],
      requiredClaims: ['iss', 'aud', 'sub', 'iat', 'exp', 'nonce'],
      clockTolerance: 60,
      maxTokenAge: '15 minutes',
    }));
  } catch (error) {
    const code = error instanceof joseErrors.JOSEError ? error.code : 'ERROR';
    throw new ElectronicIdError('FAILED', `id token rejected (${code}): ${(error as Error).message}`);
  }
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== config.clientId)
    throw new ElectronicIdError('FAILED', 'id token azp is not this client');
  if (typeof payload.nonce !== 'string' || !safeEqual(payload.nonce, expectedNonce)) throw new ElectronicIdError('FAILED', 'id token nonce does not match');
  const subject = ESTONIAN_SUBJECT.exec(payload.sub ?? '');
  if (!subject) throw new ElectronicIdError('FAILED', 'id token subject is not an Estonian personal code');
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return { personalCode: subject[1]!, givenName: text(payload.given_name), familyName: text(payload.family_name) };
}
