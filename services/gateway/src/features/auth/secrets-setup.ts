import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config';
import type { AppDatabase } from '../../infrastructure/database';
import { reencryptLegacyApiKeys } from '../budgets/api-keys';
import { LEGACY_FLOW_KEY_NAME } from '../electronic-id/flow-cookie';
import { encryptPlaintextTotpSecrets } from './mfa';
import { deriveKeys, installSecretKeys, loadSecretsKey, type SecretKeys } from './secret-keys';

/** First thing at start (before the database is opened): a missing or malformed key stops the start. */
export async function loadSecretKeys(config: Pick<AppConfig, 'environment' | 'secrets'>): Promise<SecretKeys> {
  return deriveKeys(await loadSecretsKey(config));
}

/**
 * Before any route serves: the keys are installed for the database and data of older
 * installations is moved under them. Every step is idempotent, so every start runs it.
 */
export async function setUpSecrets(keys: SecretKeys, db: AppDatabase, log: Pick<FastifyBaseLogger, 'info'>): Promise<void> {
  installSecretKeys(db, keys);
  const totpSecrets = await encryptPlaintextTotpSecrets(db);
  const apiKeys = await reencryptLegacyApiKeys(db);
  await db.deleteFrom('operational.electronic_id_keys').where('name', '=', LEGACY_FLOW_KEY_NAME).execute();
  if (totpSecrets > 0 || apiKeys > 0) log.info({ totpSecrets, apiKeys }, 'secrets moved under the secrets key');
}
