import path from 'node:path';
import { z } from 'zod';

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

/** Process configuration, from environment variables (issue 2, point 4). */
const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  DATABASE_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  EVENTSTORE_CONNECTION_STRING: z.preprocess(emptyAsUndefined, z.string().optional()),
  DATA_DIR: z.string().default('.data'),
  PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  BOOTSTRAP_ADMIN_EMAIL: z.preprocess(emptyAsUndefined, z.email().optional()),
  BOOTSTRAP_ADMIN_PASSWORD: z.preprocess(emptyAsUndefined, z.string().min(8).optional()),
  /** Behind a reverse proxy: trust its X-Forwarded-For so throttling sees the real address. */
  TRUST_PROXY: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.preprocess(emptyAsUndefined, z.string().optional()),
  DEMO_DATA: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).optional()),
  /** smtp(s)://user:pass@host:port; without it mail is written as .eml files under DATA_DIR/mail. */
  SMTP_URL: z.preprocess(emptyAsUndefined, z.string().optional()),
  MAIL_FROM: z.string().default('Eelarve <no-reply@eelarve.local>'),
  /** The electronic-ID OpenID Connect provider; without it `npm start` runs the local stand-in. */
  OIDC_ISSUER: z.preprocess(emptyAsUndefined, z.url().optional()),
  OIDC_CLIENT_ID: z.string().default('eelarve'),
  OIDC_CLIENT_SECRET: z.string().default('eelarve-local-secret'),
  /** Sessions without remember-me end after this long without a request. */
  SESSION_IDLE_TIMEOUT_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(12 * 60),
  /** The key that encrypts secrets (TOTP, budget API keys, flow cookies): base64 of 32 bytes. */
  SECRETS_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** Or a file holding that key (base64), outside the database; created when missing outside production. */
  KEY_FILE: z.preprocess(emptyAsUndefined, z.string().optional()),
});

export type Environment = z.infer<typeof environmentSchema>;

/** Demo credentials used when no BOOTSTRAP_ADMIN_* is given outside production; README states them. */
export const DEMO_ADMIN = { email: 'admin@eelarve.local', password: 'Eelarve-Demo-2026' } as const;

export interface AppConfig {
  environment: Environment['NODE_ENV'];
  databaseUrl: string;
  eventStoreConnectionString?: string;
  dataDir: string;
  publicUrl: string;
  /**
   * The platform administrator created on an empty database. Undefined in production without
   * BOOTSTRAP_ADMIN_*: the published demo credentials must never open a real installation.
   */
  bootstrapAdmin?: { email: string; password: string };
  logLevel: Environment['LOG_LEVEL'];
  /** Built web client to serve; undefined serves the API only. */
  webDist?: string;
  /** Run projectors in this process (the default; off for API-only replicas). */
  runProjections: boolean;
  /** Bound on how long a command's response waits for its read models. */
  readYourWritesTimeoutMs: number;
  mail: { smtpUrl?: string; from: string };
  trustProxy?: boolean;
  /** Electronic ID (authentication type PASS) through OpenID Connect; undefined turns it off. */
  oidc?: { issuer: string; clientId: string; clientSecret: string };
  /** Sessions without remember-me end after this long without a request (SESSION_IDLE_TIMEOUT_MINUTES). */
  sessionIdleTimeoutMs: number;
  /** Where the secrets key comes from: SECRETS_KEY, else KEY_FILE (default DATA_DIR/secrets.key outside production). */
  secrets: { key?: string; keyFile?: string };
}

export function parseEnvironment(env: NodeJS.ProcessEnv): Environment {
  const result = environmentSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`invalid configuration: ${problems}`);
  }
  return result.data;
}

export function defaultWebDist(): string {
  return path.resolve(import.meta.dirname, '../../../web/dist');
}

/** Turns the environment into the app's configuration once the database address is known. */
export function configFromEnvironment(env: Environment, databaseUrl: string): AppConfig {
  return {
    environment: env.NODE_ENV,
    databaseUrl,
    eventStoreConnectionString: env.EVENTSTORE_CONNECTION_STRING,
    dataDir: path.resolve(env.DATA_DIR),
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    bootstrapAdmin: bootstrapAdminOf(env),
    logLevel: env.LOG_LEVEL,
    webDist: env.WEB_DIST ?? defaultWebDist(),
    runProjections: true,
    readYourWritesTimeoutMs: 5_000,
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    trustProxy: env.TRUST_PROXY === 'true',
    oidc: env.OIDC_ISSUER ? { issuer: env.OIDC_ISSUER, clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET } : undefined,
    sessionIdleTimeoutMs: env.SESSION_IDLE_TIMEOUT_MINUTES * 60_000,
    secrets: { key: env.SECRETS_KEY, keyFile: env.KEY_FILE ?? (env.NODE_ENV === 'production' ? undefined : path.resolve(env.DATA_DIR, 'secrets.key')) },
  };
}

/** The given administrator; outside production the demo one fills what is not given. */
function bootstrapAdminOf(env: Environment): AppConfig['bootstrapAdmin'] {
  const { BOOTSTRAP_ADMIN_EMAIL: email, BOOTSTRAP_ADMIN_PASSWORD: password } = env;
  // Production refuses the published demo password: anyone who read the README could sign in.
  if (env.NODE_ENV === 'production' && password === DEMO_ADMIN.password)
    throw new Error('invalid configuration: BOOTSTRAP_ADMIN_PASSWORD is the published demo password');
  if (email && password) return { email, password };
  if (env.NODE_ENV !== 'production') return { email: email ?? DEMO_ADMIN.email, password: password ?? DEMO_ADMIN.password };
  if (email || password) throw new Error('invalid configuration: BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD go together in production');
  return undefined;
}
