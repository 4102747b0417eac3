import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createDatabase, startEmbeddedPostgres } from '@eelarve/postgres';
import pg from 'pg';

/** The database the product itself uses on its embedded server. */
const PRODUCT_DATABASE = 'eelarve';

export interface ProductDatabase {
  url: string;
  /** Stops the embedded server if this process had to start it. */
  close(): Promise<void>;
}

/**
 * Finds the product's database the way the product does: DATABASE_URL; else the running
 * product's embedded server, whose address it leaves in `${DATA_DIR}/postgres.json`; else the
 * embedded server on that data directory, started here (on the recorded port when there is one).
 */
export async function connectProductDatabase(env: NodeJS.ProcessEnv = process.env): Promise<ProductDatabase> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, close: async () => {} };
  const dataDir = path.resolve(env.DATA_DIR ?? '.data');
  const recorded = await recordedUrl(path.join(dataDir, 'postgres.json'));
  if (recorded && (await reachable(recorded))) return { url: recorded, close: async () => {} };
  const port = recorded ? Number(new URL(recorded).port) : undefined;
  const server = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), port });
  return { url: await createDatabase(server.adminUrl, PRODUCT_DATABASE), close: () => server.stop() };
}

async function recordedUrl(file: string): Promise<string | undefined> {
  try {
    const { url } = JSON.parse(await readFile(file, 'utf8')) as { url?: unknown };
    return typeof url === 'string' ? url : undefined;
  } catch {
    return undefined;
  }
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
