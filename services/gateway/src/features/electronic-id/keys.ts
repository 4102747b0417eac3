import { createHmac, randomBytes } from 'node:crypto';
import type { AppDatabase } from '../../infrastructure/database';
import { flowCookieKey } from './flow-cookie';

export interface ElectronicIdKeys {
  /** HMAC key for personal codes: the table holds only HMAC-SHA-256(key, code). */
  personalCode: Buffer;
  /** AES-256-GCM key sealing the flow cookie (state, nonce, PKCE verifier); from the secrets key, not the database. */
  flowCookie: Buffer;
}

const KEY_NAMES = { personalCode: 'personal-code-hmac' } as const;
const cache = new WeakMap<AppDatabase, Promise<ElectronicIdKeys>>();

async function loadKey(db: AppDatabase, name: string): Promise<Buffer> {
  // The first process to need a key creates it; every other one reads the same.
  await db
    .insertInto('operational.electronic_id_keys')
    .values({ name, key: randomBytes(32) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('operational.electronic_id_keys').select('key').where('name', '=', name).executeTakeFirstOrThrow();
  return row.key;
}

/** The installation's keys, created on first use and kept in the database. */
export function electronicIdKeys(db: AppDatabase): Promise<ElectronicIdKeys> {
  let keys = cache.get(db);
  if (!keys) {
    keys = (async () => ({ personalCode: await loadKey(db, KEY_NAMES.personalCode), flowCookie: flowCookieKey(db) }))();
    keys.catch(() => cache.delete(db));
    cache.set(db, keys);
  }
  return keys;
}

/** The stored form of a personal code: a keyed hash, so the table alone does not reveal who is bound. */
export async function hashPersonalCode(db: AppDatabase, personalCode: string): Promise<Buffer> {
  const { personalCode: key } = await electronicIdKeys(db);
  return createHmac('sha256', key).update(`EE:${personalCode}`, 'utf8').digest();
}
