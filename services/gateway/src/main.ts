import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DEMO_PEOPLE, type LocalEidProvider, startLocalEidProvider } from '@eelarve/eid-provider';
import { type EmbeddedPostgresEvent, startEmbeddedPostgres } from '@eelarve/postgres';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { type AppConfig, configFromEnvironment, DEMO_ADMIN, type Environment, parseEnvironment } from './config';
import { installShutdown } from './infrastructure/shutdown';

/**
 * Demo data comes from the testing package, a development dependency: loaded only when DEMO_DATA
 * asks for it, so a production install (without dev dependencies) never needs it. Answers the
 * demo department's login when it can sign in with the demo password (never in production).
 */
async function seedDemoData(app: FastifyInstance): Promise<string | null> {
  const demo = await import('@eelarve/testing/demo');
  await demo.seedDemoData(app);
  return demo.demoDepartmentLogin(app.config);
}

/** Bound on draining in-flight requests before the database is stopped anyway. */
const DRAIN_TIMEOUT_MS = 30_000;

/** The process entry: configuration, the embedded database when none is given, port, signals. */
async function main(): Promise<void> {
  const env = parseEnvironment(process.env);
  const dataDir = path.resolve(env.DATA_DIR);
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  const log = startupLogger();
  const embedded = env.DATABASE_URL
    ? null
    : await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), onEvent: (event) => logDatabaseEvent(log.current, event) });
  const databaseUrl = env.DATABASE_URL ?? (await embeddedDatabaseUrl(embedded!.adminUrl, dataDir));
  const config = configFromEnvironment(env, databaseUrl);
  const eid = config.oidc ? null : await startDemoEidProvider(env, config);
  const app = await buildApp(config);
  log.current = app.log;
  const departmentLogin = env.DEMO_DATA === 'true' ? await seedDemoData(app) : null;

  // app.close() stops accepting, waits for in-flight requests, then runs the onClose hooks:
  // projectors stop, pools close. The database goes last.
  installShutdown({
    drain: () => closeApp(app),
    stop: async () => {
      await eid?.close();
      await embedded?.stop();
    },
    drainTimeoutMs: DRAIN_TIMEOUT_MS,
    log: app.log,
  });

  await app.listen({ port: env.PORT, host: env.HOST });
  const address = `http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${env.PORT}`;
  process.stdout.write(
    [
      '',
      `  Eelarve is running at ${address}`,
      signInLine(env),
      ...departmentSignInLines(departmentLogin),
      `  API documentation: ${address}/api/docs`,
      embedded ? `  Embedded PostgreSQL data: ${path.join(dataDir, 'postgres')}` : '  Database: DATABASE_URL',
      config.oidc
        ? `  Electronic ID: ${eid ? `local stand-in provider at ${eid.issuer} (OIDC_ISSUER not set)` : config.oidc.issuer}`
        : '  Electronic ID: off (OIDC_ISSUER not set)',
      ...(eid
        ? [`  Electronic-ID demo people: ${DEMO_PEOPLE.map((person) => `${person.personalCode} ${person.givenName} ${person.familyName}`).join(', ')}`]
        : []),
      '',
      '',
    ].join('\n'),
  );
}

/** How to sign in; production names no password and never the demo administrator. */
function signInLine(env: Environment): string {
  if (env.BOOTSTRAP_ADMIN_EMAIL && env.BOOTSTRAP_ADMIN_PASSWORD) return `  Log in as ${env.BOOTSTRAP_ADMIN_EMAIL} with BOOTSTRAP_ADMIN_PASSWORD`;
  if (env.NODE_ENV === 'production')
    return '  No administrator is created without BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD (set both and start again)';
  return `  Log in as ${env.BOOTSTRAP_ADMIN_EMAIL ?? DEMO_ADMIN.email} with password ${env.BOOTSTRAP_ADMIN_PASSWORD ? '(BOOTSTRAP_ADMIN_PASSWORD)' : DEMO_ADMIN.password}`;
}

/** The demo department's login, named only when it has the demo password (never in production). */
function departmentSignInLines(login: string | null): string[] {
  return login ? [`  Or as the education department, ${login}, with the same password: it sees one budget and updates one sub-budget`] : [];
}

/**
 * Without OIDC_ISSUER the demo runs the local electronic-ID stand-in on PORT+1 (or
 * EID_PROVIDER_PORT) and points the gateway at it. Never in production: the stand-in vouches for
 * any personal code typed into it.
 */
async function startDemoEidProvider(env: Environment, config: AppConfig): Promise<LocalEidProvider | null> {
  if (env.NODE_ENV === 'production') return null;
  const given = process.env.EID_PROVIDER_PORT;
  const port = given ? Number(given) : env.PORT === 0 ? 0 : env.PORT + 1;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`invalid configuration: EID_PROVIDER_PORT: ${given}`);
  try {
    const provider = await startLocalEidProvider({
      port,
      host: env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST,
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET,
      redirectUris: demoRedirectUris(config.publicUrl),
    });
    config.oidc = { issuer: provider.issuer, clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET };
    return provider;
  } catch (error) {
    process.stderr.write(`electronic-ID stand-in not started on port ${port}: ${error instanceof Error ? error.message : String(error)}\n`);
    return null;
  }
}

/** PUBLIC_URL's callback and, for a loopback PUBLIC_URL, the same on localhost and 127.0.0.1 (cookies are per host). */
function demoRedirectUris(publicUrl: string): string[] {
  const path = '/public/auth/pass-callback';
  const uris = new Set([`${publicUrl.replace(/\/+$/, '')}${path}`]);
  const url = new URL(publicUrl);
  if (url.pathname === '/' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
    for (const host of ['localhost', '127.0.0.1', '[::1]']) uris.add(`${url.protocol}//${host}${url.port ? `:${url.port}` : ''}${path}`);
  }
  return [...uris];
}

/**
 * `app.close()` with keep-alive connections closed as soon as their last request is answered:
 * the server closes the idle ones once when closing starts, but a connection whose request was
 * still running would otherwise stay open (and keep the close waiting) until the client leaves.
 */
async function closeApp(app: FastifyInstance): Promise<void> {
  const sweeper = setInterval(() => app.server.closeIdleConnections(), 100);
  try {
    await app.close();
  } finally {
    clearInterval(sweeper);
  }
}

type EventLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** Until the app (and its pino logger) exists, log lines go to stderr as JSON too. */
function startupLogger(): { current: EventLog } {
  const write = (level: string) => (object: object, message?: string) => {
    process.stderr.write(`${JSON.stringify({ level, time: Date.now(), ...object, msg: message })}\n`);
  };
  return { current: { info: write('info'), warn: write('warn'), error: write('error') } as EventLog };
}

/** The embedded server's supervision, in the log: a death and its restart are worth a line each. */
function logDatabaseEvent(log: EventLog, event: EmbeddedPostgresEvent): void {
  if (event.type === 'exited')
    log.error({ code: event.code, signal: event.signal, restartInMs: event.restartInMs }, 'embedded PostgreSQL stopped unexpectedly; restarting');
  else if (event.type === 'restart-failed')
    log.error({ err: event.error, restartInMs: event.restartInMs }, 'embedded PostgreSQL did not restart; trying again');
  else if (event.type === 'restarted') log.info({ pid: event.pid }, 'embedded PostgreSQL restarted');
  else if (event.type === 'stale-server-stopped') log.warn({ pid: event.pid }, 'stopped the embedded PostgreSQL a previous run left behind');
  else log.info({ pid: event.pid }, 'removed a stale PostgreSQL lock file');
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
