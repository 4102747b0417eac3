import { randomUUID } from 'node:crypto';
import { occupationDecider, roleDecider, userDecider } from '@eelarve/domain';
import type { GlobalPosition } from '@eelarve/eventstore';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import { hashPassword } from '../src/features/auth/passwords';
import { type CommandActor, executeCommand } from '../src/infrastructure/commands';
import { type Client, login, validOrganization } from './helpers';

/** Fixtures for the sign-in tests: organisations through the API, users through the product's commands. */

const systemActor = (): CommandActor => ({ correlationId: randomUUID(), userId: null, occupationId: null, organizationId: null });

export async function createOrganization(admin: Client, overrides: Partial<typeof validOrganization> & Record<string, unknown> = {}): Promise<string> {
  const response = await admin.request({
    method: 'POST',
    url: '/api/organization',
    payload: { ...validOrganization, name: `Org ${randomUUID().slice(0, 8)}`, ...overrides },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

export interface TestUser {
  userId: string;
  email: string;
  password: string;
  occupationIds: string[];
}

let counter = 0;

/**
 * A user registered in `organizations[0]` with one occupation in each listed organisation;
 * confirmed and with a password unless told otherwise.
 */
export async function createUser(
  app: FastifyInstance,
  organizations: string[],
  options: { email?: string; password?: string | null; confirmed?: boolean; name?: string } = {},
): Promise<TestUser> {
  const actor = systemActor();
  const userId = randomUUID();
  counter += 1;
  const email = options.email ?? `user-${counter}-${userId.slice(0, 6)}@example.com`;
  const password = options.password === undefined ? 'Valid-Password-1' : options.password;
  const { store } = app;
  let last: GlobalPosition | null = null;
  const track = (position: GlobalPosition | null) => {
    if (position) last = position;
  };
  track(
    (
      await executeCommand(
        store,
        userDecider,
        { type: 'RegisterUser', userId, organizationId: organizations[0]!, name: options.name ?? `User ${counter}`, email, now: new Date() },
        actor,
      )
    ).position,
  );
  if (options.confirmed ?? true) track((await executeCommand(store, userDecider, { type: 'ConfirmEmail', userId, now: new Date() }, actor)).position);
  if (password) {
    track((await executeCommand(store, userDecider, { type: 'SetPassword', userId }, actor)).position);
    await app.db
      .insertInto('operational.credentials')
      .values({ user_id: userId, password_hash: await hashPassword(password) })
      .execute();
  }
  const occupationIds: string[] = [];
  for (const [index, organizationId] of organizations.entries()) {
    const roleId = randomUUID();
    const occupationId = randomUUID();
    track(
      (
        await executeCommand(
          store,
          roleDecider,
          {
            type: 'CreateRole',
            roleId,
            organizationId,
            name: `Clerk ${randomUUID().slice(0, 6)}`,
            description: '',
            privilegeIds: ['DATA_VIEW'],
            roleType: 'DEFAULT',
          },
          actor,
        )
      ).position,
    );
    track(
      (
        await executeCommand(
          store,
          occupationDecider,
          {
            type: 'CreateOccupation',
            occupationId,
            organizationId,
            userId,
            name: `Occupation ${index + 1}`,
            description: '',
            occupationType: 'DEFAULT',
            roleIds: [roleId],
          },
          actor,
        )
      ).position,
    );
    occupationIds.push(occupationId);
  }
  if (last) await app.projections.waitForPosition(['accounts', 'organizations'], last, 10_000);
  return { userId, email, password: password ?? '', occupationIds };
}

/** The session cookie's name: plain on http, `__Host-` prefixed over HTTPS or in production. */
const isSessionCookie = (name: string) => name === 'eelarve_session' || name === '__Host-eelarve_session';

export function sessionCookie(response: LightMyRequestResponse): string | undefined {
  const cookie = response.cookies.find((candidate) => isSessionCookie(candidate.name));
  return cookie ? `${cookie.name}=${cookie.value}` : undefined;
}

/** A client that follows the session cookie as a browser would (the token changes on MFA upgrade). */
export class Browser {
  cookie: string | undefined;
  constructor(
    private readonly app: FastifyInstance,
    readonly ip = '127.0.0.1',
  ) {}

  async request(options: InjectOptions): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      remoteAddress: this.ip,
      ...options,
      headers: { ...(options.headers ?? {}), ...(this.cookie ? { cookie: this.cookie } : {}) },
    });
    const next = response.cookies.find((candidate) => isSessionCookie(candidate.name));
    if (next) this.cookie = next.value ? `${next.name}=${next.value}` : undefined;
    return response;
  }

  login(username: string, password: string, extra: { rememberMe?: boolean; occupationId?: string } = {}) {
    return this.request({ method: 'POST', url: '/initial/auth/login', payload: { username, password, ...extra } });
  }
}

export async function loginAs(app: FastifyInstance, user: TestUser): Promise<Client> {
  return login(app, user.email, user.password);
}

export function totp(secret: string, label = ''): TOTP {
  return new TOTP({ issuer: 'Eelarve', label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

/** A real code for the current step, or `steps` steps ahead (accepted within the ±1 window). */
export function codeFor(secret: string, steps = 0): string {
  return totp(secret).generate({ timestamp: Date.now() + steps * 30_000 });
}

/** The time left in the current 30-second step; tests that need two distinct codes wait it out if it is nearly over. */
export async function awayFromStepEdge(): Promise<void> {
  const intoStep = Date.now() % 30_000;
  if (intoStep > 27_000) await new Promise((resolve) => setTimeout(resolve, 30_000 - intoStep + 100));
}
