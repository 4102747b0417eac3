import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { AppDatabase } from '../../infrastructure/database';
import { secretKey } from '../auth/secret-keys';

/** The short-lived cookie that carries one electronic-ID round trip from its start to the callback. */
export const FLOW_COOKIE = 'eelarve_eid_flow';
export const FLOW_COOKIE_PATH = '/public/auth/pass-callback';
export const FLOW_LIFETIME_SECONDS = 10 * 60;

export const flowSchema = z.object({
  mode: z.enum(['login', 'bind', 'confirm']),
  issuer: z.string(),
  state: z.string(),
  nonce: z.string(),
  codeVerifier: z.string(),
  /** The redirect URI sent to the provider; the token request must repeat it exactly. */
  redirectUri: z.string(),
  /** login: where to go once an occupation is entered (a path on this site). */
  redirect: z.string().optional(),
  /** bind: the user and the session that started it; the callback must come with the same session. */
  userId: z.string().optional(),
  sessionHash: z.string().optional(),
  /** confirm: the mailed token and its purpose. */
  token: z.string().optional(),
  tokenType: z.enum(['REGISTRATION', 'RESET']).optional(),
  expiresAt: z.number(),
});

export type Flow = z.infer<typeof flowSchema>;

/**
 * The cookie's key is derived from the installation's secrets key (never stored in the
 * database). Older installations kept one in operational.electronic_id_keys under
 * LEGACY_FLOW_KEY_NAME; the start-up migration deletes it (a round trip in flight then fails once).
 */
export const LEGACY_FLOW_KEY_NAME = 'flow-cookie-aes-gcm';

export function flowCookieKey(db: AppDatabase): Buffer {
  return secretKey(db, 'flow-cookie');
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const AAD = Buffer.from(FLOW_COOKIE, 'utf8');

/** AES-256-GCM: the browser can neither read nor alter what it carries (signed and secret). */
export function sealFlow(flow: Flow, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(AAD);
  const body = Buffer.concat([cipher.update(JSON.stringify(flow), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The flow, or null when the cookie is missing, forged, altered or expired. */
export function openFlow(sealed: string | undefined, key: Buffer, now = Date.now()): Flow | null {
  if (!sealed) return null;
  try {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length <= IV_BYTES + TAG_BYTES) return null;
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(AAD);
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const json = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    const flow = flowSchema.parse(JSON.parse(json));
    return flow.expiresAt > now ? flow : null;
  } catch {
    return null;
  }
}
