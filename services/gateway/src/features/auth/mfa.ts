import { PRODUCT_NAME } from '@eelarve/shared';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { AppDatabase } from '../../infrastructure/database';

/** TOTP as authenticator apps expect it: SHA1, 6 digits, 30-second steps (RFC 6238). */
export const TOTP_PERIOD_SECONDS = 30;
/** A code of the previous or next step is accepted too (clock drift). */
export const TOTP_WINDOW = 1;

export function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({ issuer: PRODUCT_NAME, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

export interface MfaState {
  /** The confirmed secret: MFA is added. */
  secret: string | null;
  /** A secret shown for setup, not yet confirmed with a code. */
  pendingSecret: string | null;
  lastStep: number | null;
}

export async function loadMfa(db: AppDatabase, userId: string): Promise<MfaState> {
  const row = await db.selectFrom('operational.mfa_secrets').select(['secret', 'pending_secret', 'last_step']).where('user_id', '=', userId).executeTakeFirst();
  return { secret: row?.secret ?? null, pendingSecret: row?.pending_secret ?? null, lastStep: row?.last_step == null ? null : Number(row.last_step) };
}

export async function hasMfa(db: AppDatabase, userId: string): Promise<boolean> {
  return (await loadMfa(db, userId)).secret !== null;
}

/** A new pending secret (the confirmed one, if any, keeps working until the new one is confirmed). */
export async function createPendingSecret(db: AppDatabase, userId: string, email: string): Promise<{ uri: string; code: string; qrCode: string }> {
  const secret = new Secret({ size: 20 });
  await db
    .insertInto('operational.mfa_secrets')
    .values({ user_id: userId, pending_secret: secret.base32 })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ pending_secret: secret.base32, updated_at: new Date() }))
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
  return (await claimStep(db, userId, step, state.pendingSecret)) ? 'valid' : 'invalid';
}

/** MFA removed (the user disabled it, or an administrator removed the user's authentication methods). */
export async function removeMfa(db: AppDatabase, userId: string): Promise<boolean> {
  const row = await db.deleteFrom('operational.mfa_secrets').where('user_id', '=', userId).returning('secret').executeTakeFirst();
  return Boolean(row?.secret);
}
