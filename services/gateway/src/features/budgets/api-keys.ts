import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { AppDatabase } from '../../infrastructure/database';

/**
 * Import API keys of monitoring budgets. The key is shown to platform administrators
 * (GET api/budget/{id}/api-key), so it is kept encrypted (AES-256-GCM under an installation key)
 * next to its SHA-256, by which an import call can find its budget without decrypting anything.
 */
const KEY_NAME = 'budget-api-key-aes-gcm';

type Db = AppDatabase;

const cache = new WeakMap<Db, Promise<Buffer>>();

function encryptionKey(db: Db): Promise<Buffer> {
  let key = cache.get(db);
  if (!key) {
    key = (async () => {
      await db
        .insertInto('operational.electronic_id_keys')
        .values({ name: KEY_NAME, key: randomBytes(32) })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await db.selectFrom('operational.electronic_id_keys').select('key').where('name', '=', KEY_NAME).executeTakeFirstOrThrow();
      return row.key;
    })();
    key.catch(() => cache.delete(db));
    cache.set(db, key);
  }
  return key;
}

export const hashApiKey = (apiKey: string) => createHash('sha256').update(apiKey, 'utf8').digest();

async function seal(db: Db, apiKey: string): Promise<Buffer> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await encryptionKey(db), iv);
  const body = Buffer.concat([cipher.update(apiKey, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

async function open(db: Db, sealed: Buffer): Promise<string> {
  const decipher = createDecipheriv('aes-256-gcm', await encryptionKey(db), sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
}

/** Issues a new random key for the budget (replacing any earlier one) and returns it. */
export async function issueApiKey(db: Db, budgetId: string): Promise<string> {
  const apiKey = randomBytes(32).toString('base64url');
  const row = { key_hash: hashApiKey(apiKey), key_ciphertext: await seal(db, apiKey), issued_at: new Date() };
  await db
    .insertInto('operational.budget_api_keys')
    .values({ budget_id: budgetId, ...row })
    .onConflict((oc) => oc.column('budget_id').doUpdateSet(row))
    .execute();
  return apiKey;
}

/** The budget's key, or null when none was issued. */
export async function readApiKey(db: Db, budgetId: string): Promise<string | null> {
  const row = await db.selectFrom('operational.budget_api_keys').selectAll().where('budget_id', '=', budgetId).executeTakeFirst();
  return row ? open(db, row.key_ciphertext) : null;
}

/** The budget an import call's key belongs to (for the import endpoint of the monitoring feature). */
export async function budgetOfApiKey(db: Db, apiKey: string): Promise<string | null> {
  const row = await db.selectFrom('operational.budget_api_keys').selectAll().where('key_hash', '=', hashApiKey(apiKey)).executeTakeFirst();
  return row?.budget_id ?? null;
}

export async function deleteApiKey(db: Db, budgetId: string): Promise<void> {
  await db.deleteFrom('operational.budget_api_keys').where('budget_id', '=', budgetId).execute();
}
