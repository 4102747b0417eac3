import { createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { AppDatabase } from '../../infrastructure/database';
import { open, seal, secretKey } from '../auth/secret-keys';

/**
 * Import API keys of monitoring budgets. The key is shown to platform administrators
 * (GET api/budget/{id}/api-key), so it is kept encrypted (AES-256-GCM under the installation's
 * secrets key, which never lives in the database, bound to the budget) next to its SHA-256, by
 * which an import call can find its budget without decrypting anything.
 */
type Db = AppDatabase;

/**
 * Older installations kept the encryption key in the database (operational.electronic_id_keys
 * under this name); `reencryptLegacyApiKeys` moves their keys to the secrets key and drops it.
 */
export const LEGACY_KEY_NAME = 'budget-api-key-aes-gcm';

export const hashApiKey = (apiKey: string) => createHash('sha256').update(apiKey, 'utf8').digest();

const sealApiKey = (db: Db, budgetId: string, apiKey: string) => seal(secretKey(db, 'budget-api-key'), apiKey, `budget-api-key:${budgetId}`);
const openApiKey = (db: Db, budgetId: string, sealed: Buffer) => open(secretKey(db, 'budget-api-key'), sealed, `budget-api-key:${budgetId}`);

/** Issues a new random key for the budget (replacing any earlier one) and returns it. */
export async function issueApiKey(db: Db, budgetId: string): Promise<string> {
  const apiKey = randomBytes(32).toString('base64url');
  const row = { key_hash: hashApiKey(apiKey), key_ciphertext: sealApiKey(db, budgetId, apiKey), issued_at: new Date() };
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
  return row ? openApiKey(db, budgetId, row.key_ciphertext) : null;
}

/** The budget an import call's key belongs to (for the import endpoint of the monitoring feature). */
export async function budgetOfApiKey(db: Db, apiKey: string): Promise<string | null> {
  const row = await db.selectFrom('operational.budget_api_keys').selectAll().where('key_hash', '=', hashApiKey(apiKey)).executeTakeFirst();
  return row?.budget_id ?? null;
}

export async function deleteApiKey(db: Db, budgetId: string): Promise<void> {
  await db.deleteFrom('operational.budget_api_keys').where('budget_id', '=', budgetId).execute();
}

/** The format of keys sealed under the legacy database key: iv | tag | ciphertext, no additional data. */
function openLegacy(legacyKey: Buffer, sealed: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', legacyKey, sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
}

/**
 * Start-up migration: keys sealed under the legacy in-database key are re-sealed under the
 * secrets key and the legacy key is deleted, in one transaction that holds the key row locked
 * (a second gateway starting at once waits and then finds nothing to do). Idempotent.
 */
export async function reencryptLegacyApiKeys(db: Db): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const legacy = await trx.selectFrom('operational.electronic_id_keys').select('key').where('name', '=', LEGACY_KEY_NAME).forUpdate().executeTakeFirst();
    if (!legacy) return 0;
    const rows = await trx.selectFrom('operational.budget_api_keys').select(['budget_id', 'key_ciphertext']).execute();
    for (const row of rows) {
      const apiKey = openLegacy(legacy.key, row.key_ciphertext);
      await trx
        .updateTable('operational.budget_api_keys')
        .set({ key_ciphertext: sealApiKey(db, row.budget_id, apiKey) })
        .where('budget_id', '=', row.budget_id)
        .execute();
    }
    await trx.deleteFrom('operational.electronic_id_keys').where('name', '=', LEGACY_KEY_NAME).execute();
    return rows.length;
  });
}
