import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppConfig } from '../../config';
import type { AppDatabase } from '../../infrastructure/database';

/**
 * The installation's secrets key: it encrypts TOTP secrets, budget API keys and the
 * electronic-ID flow cookie. It comes from SECRETS_KEY or a key file, never from the database,
 * so a copy of the database (a backup, a dump, an SQL injection) does not open the secrets.
 * Each use gets its own key derived with HKDF, so one use's ciphertext never opens another's.
 */
export const KEY_BYTES = 32;

export type SecretPurpose = 'totp' | 'budget-api-key' | 'flow-cookie';

export type SecretKeys = Record<SecretPurpose, Buffer>;

function parseKey(base64: string, source: string): Buffer {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`invalid configuration: ${source} must be base64 of ${KEY_BYTES} bytes (openssl rand -base64 32)`);
  return key;
}

/** The key file, created with mode 0600 when missing outside production. */
async function readKeyFile(file: string, environment: AppConfig['environment']): Promise<Buffer> {
  try {
    return parseKey(await readFile(file, 'utf8'), `KEY_FILE ${file}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || environment === 'production') throw error;
  }
  await mkdir(path.dirname(file), { recursive: true });
  // 'wx': of two processes starting at once only one writes; the other reads what it wrote.
  try {
    await writeFile(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return parseKey(await readFile(file, 'utf8'), `KEY_FILE ${file}`);
}

/** SECRETS_KEY, else KEY_FILE (DATA_DIR/secrets.key outside production). */
export async function loadSecretsKey(config: Pick<AppConfig, 'environment' | 'secrets'>): Promise<Buffer> {
  if (config.secrets.key) return parseKey(config.secrets.key, 'SECRETS_KEY');
  if (config.secrets.keyFile) return readKeyFile(config.secrets.keyFile, config.environment);
  throw new Error('invalid configuration: production needs SECRETS_KEY (base64 of 32 bytes) or KEY_FILE, a file holding one');
}

export function deriveKeys(master: Buffer): SecretKeys {
  const derive = (purpose: SecretPurpose) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `eelarve:${purpose}`, KEY_BYTES));
  return { totp: derive('totp'), 'budget-api-key': derive('budget-api-key'), 'flow-cookie': derive('flow-cookie') };
}

/**
 * The keys of the app whose database this is. Features that are handed only the database
 * (API keys, MFA) find their key here; `installSecretKeys` runs once at start, before routes serve.
 */
const installed = new WeakMap<AppDatabase, SecretKeys>();

export function installSecretKeys(db: AppDatabase, keys: SecretKeys): void {
  installed.set(db, keys);
}

export function secretKey(db: AppDatabase, purpose: SecretPurpose): Buffer {
  const keys = installed.get(db);
  if (!keys) throw new Error('secret keys are not installed for this database');
  return keys[purpose];
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM: iv | tag | ciphertext. `context` is bound as additional data (the row it belongs to). */
export function seal(key: Buffer, plaintext: string, context: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The plaintext; throws when the key, the context or the bytes do not match. */
export function open(key: Buffer, sealed: Buffer, context: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
