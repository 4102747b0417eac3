import { PRODUCT_NAME } from '@eelarve/shared';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { AppDatabase } from '../../infrastructure/database';
import { open, seal, secretKey } from './secret-keys';

/** TOTP as authenticator apps expect it: SHA1, 6 digits, 30-second steps (RFC 6238). */
export const TOTP_PERIOD_SECONDS = 30;
/** A code of the previous or next step is accepted too (clock drift). */
export const TOTP_WINDOW = 1;

export function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({ issuer: PRODUCT_NAME, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

/**
 * Secrets are stored encrypted (AES-256-GCM under the installation's secrets key, bound to the
 * user) as `v1:<base64url>`; a plaintext base32 secret of an older installation never has the
 * prefix, and `encryptPlaintextTotpSecrets` converts those at start.
 */
const SEALED_PREFIX = 'v1:';

export function isSealedSecret(stored: string): boolean {
  return stored.startsWith(SEALED_PREFIX);
}

export function sealSecret(db: AppDatabase, userId: string, base32: string): string {
  return SEALED_PREFIX + seal(secretKey(db, 'totp'), base32, `totp:${userId}`).toString('base64url');
}

function openSecret(db: AppDatabase, userId: string, stored: string): string {
  return open(secretKey(db, 'totp'), Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64url'), `totp:${userId}`);
}

export interface MfaState {
  /** The confirmed secret: MFA is added. */
  secret: string | null;
  /** A secret shown for setup, not yet confirmed with a code. */
  pendingSecret: string | null;
  /** The pending secret as stored (sealed), which confirming moves to `secret` as it is. */
  storedPendingSecret: string | null;
  lastStep: number | null;
}

export async function loadMfa(db: AppDatabase, userId: string): Promise<MfaState> {
  const row = await db.selectFrom('operational.mfa_secrets').select(['secret', 'pending_secret', 'last_step']).where('user_id', '=', userId).executeTakeFirst();
  const opened = (stored: string | null | undefined) => (stored ? openSecret(db, userId, stored) : null);
  return {
    secret: opened(row?.secret),
    pendingSecret: opened(row?.pending_secret),
    storedPendingSecret: row?.pending_secret ?? null,
    lastStep: row?.last_step == null ? null : Number(row.last_step),
  };
}

/** Whether MFA is added; needs no key (the secret is not opened). */
export async function hasMfa(db: AppDatabase, userId: string): Promise<boolean> {
  const row = await db.selectFrom('operational.mfa_secrets').select('secret').where('user_id', '=', userId).executeTakeFirst();
  return Boolean(row?.secret);
}

/** A new pending secret (the confirmed one, if any, keeps working until the new one is confirmed). */
export async function createPendingSecret(db: AppDatabase, userId: string, email: string): Promise<{ uri: string; code: string; qrCode: string }> {
  const secret = new Secret({ size: 20 });
  const sealed = sealSecret(db, userId, secret.base32);
  await db
    .insertInto('operational.mfa_secrets')
    .values({ user_id: userId, pending_secret: sealed })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ pending_secret: sealed, updated_at: new Date() }))
    .execute();
  const uri = totpFor(secret.base32, email).toString();
  return { uri, code: secret.base32, qrCode: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 240 }) };
}

/** The time step the code belongs to, or null if it is not valid for the secret now. */
export function matchingStep(secretBase32: string, code: string, now = Date.now()): number | null {
  const delta = totpFor(secretBase32, '').validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return null;
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/**
 * Records `step` as used unless a code of this or a later step was already accepted: a code
 * cannot be replayed within its window. One statement, so two concurrent uses cannot both pass.
 * `activate` is the pending secret as stored (sealed).
 */
async function claimStep(db: AppDatabase, userId: string, step: number, activate?: string): Promise<boolean> {
  const row = await db
    .updateTable('operational.mfa_secrets')
    .set({
      last_step: step,
      updated_at: new Date(),
      ...(activate ? { secret: activate, pending_secret: null, confirmed_at: new Date() } : {}),
    })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .where((eb) => (activate ? eb('pending_secret', '=', activate) : eb('secret', 'is not', null)))
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

export type CodeCheck = 'valid' | 'invalid' | 'not-set-up';

/** Checks a code against the confirmed secret (sign-in, session upgrade). */
export async function verifyMfaCode(db: AppDatabase, userId: string, code: string): Promise<CodeCheck> {
  const state = await loadMfa(db, userId);
  if (!state.secret) return 'not-set-up';
  const step = matchingStep(state.secret, code);
  if (step === null) return 'invalid';
  return (await claimStep(db, userId, step)) ? 'valid' : 'invalid';
}

/** Checks a code against the pending secret and, if it matches, makes that secret the active one. */
export async function confirmPendingSecret(db: AppDatabase, userId: string, code: string): Promise<CodeCheck> {
  const state = await loadMfa(db, userId);
  if (!state.pendingSecret) return 'not-set-up';
  const step = matchingStep(state.pendingSecret, code);
  if (step === null) return 'invalid';
  return (await claimStep(db, userId, step, state.storedPendingSecret!)) ? 'valid' : 'invalid';
}

/** MFA removed (the user disabled it, or an administrator removed the user's authentication methods). */
export async function removeMfa(db: AppDatabase, userId: string): Promise<boolean> {
  const row = await db.deleteFrom('operational.mfa_secrets').where('user_id', '=', userId).returning('secret').executeTakeFirst();
  return Boolean(row?.secret);
}

/**
 * Start-up migration: plaintext secrets of an older installation are sealed. Idempotent (sealed
 * values are left alone) and safe with several gateways starting (each row is updated only while
 * it still holds the plaintext it read).
 */
export async function encryptPlaintextTotpSecrets(db: AppDatabase): Promise<number> {
  const rows = await db
    .selectFrom('operational.mfa_secrets')
    .select(['user_id', 'secret', 'pending_secret'])
    .where((eb) => eb.or([eb('secret', 'not like', `${SEALED_PREFIX}%`), eb('pending_secret', 'not like', `${SEALED_PREFIX}%`)]))
    .execute();
  for (const row of rows) {
    for (const column of ['secret', 'pending_secret'] as const) {
      const stored = row[column];
      if (!stored || isSealedSecret(stored)) continue;
      await db
        .updateTable('operational.mfa_secrets')
        .set({ [column]: sealSecret(db, row.user_id, stored) })
        .where('user_id', '=', row.user_id)
        .where(column, '=', stored)
        .execute();
    }
  }
  return rows.length;
}
