import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { startEmbeddedPostgres } from '@eelarve/postgres';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { configFromEnvironment, DEMO_ADMIN, parseEnvironment } from './config';
import { seedDemoData } from './demo';

/** The process entry: configuration, the embedded database when none is given, port, signals. */
async function main(): Promise<void> {
  const env = parseEnvironment(process.env);
  const dataDir = path.resolve(env.DATA_DIR);
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  const embedded = env.DATABASE_URL ? null : await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres') });
  const databaseUrl = env.DATABASE_URL ?? (await embeddedDatabaseUrl(embedded!.adminUrl, dataDir));
  const app = await buildApp(configFromEnvironment(env, databaseUrl));
  if (env.DEMO_DATA === 'true') await seedDemoData(app);

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    await embedded?.stop();
  });

  await app.listen({ port: env.PORT, host: env.HOST });
  const address = `http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${env.PORT}`;
  const admin = env.BOOTSTRAP_ADMIN_EMAIL ? { email: env.BOOTSTRAP_ADMIN_EMAIL, password: '(BOOTSTRAP_ADMIN_PASSWORD)' } : DEMO_ADMIN;
  process.stdout.write(
    [
      '',
      `  Eelarve is running at ${address}`,
      `  Log in as ${admin.email} with password ${admin.password}`,
      `  API documentation: ${address}/api/docs`,
      embedded ? `  Embedded PostgreSQL data: ${path.join(dataDir, 'postgres')}` : '  Database: DATABASE_URL',
      '',
      '',
    ].join('\n'),
  );
}

/** The product's own database on the embedded server; its address is left for the CLI tools. */
async function embeddedDatabaseUrl(adminUrl: string, dataDir: string): Promise<string> {
  const { createDatabase } = await import('@eelarve/postgres');
  const url = await createDatabase(adminUrl, 'eelarve');
  await writeFile(path.join(dataDir, 'postgres.json'), JSON.stringify({ url }, null, 2));
  return url;
}

main().catch((error) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
