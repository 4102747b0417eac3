/**
 * The organisation `pnpm bench:permissions` measures (see permissions.ts): occupations with
 * ordinary roles, one document with budgets and a scheme of many sub-budgets, and grants of
 * mixed kinds. Everything goes through the HTTP API the web calls (Fastify inject), except what
 * the API tests' own fixtures make with the features' commands (a user's password, the
 * classifier items and the document's master classifier).
 */
import { DEMO_ADMIN } from '@eelarve/gateway/config';
import { accountsFixture, type Caller, PASSWORD } from '@eelarve/testing/accounts';
import { schemesFixture } from '@eelarve/testing/schemes';

// Fastify's types as the fixtures see them (this package does not depend on fastify itself).
type FastifyInstance = Parameters<typeof accountsFixture>[0];
type LightMyRequestResponse = Awaited<ReturnType<Caller['request']>>;

export interface WorldSize {
  occupations: number;
  budgets: number;
  subBudgets: number;
  /** Sub-budget grants of the measured occupation, on budgets it cannot read as a whole. */
  measuredSubBudgetGrants: number;
}

export type Client = Caller;

export interface PermissionInput {
  documentId?: string | null;
  budgetId?: string | null;
  subBudgetId?: string | null;
  read: boolean;
  update: boolean;
}

export interface World {
  organizationId: string;
  documentId: string;
  schemeId: string;
  budgetIds: string[];
  subBudgetIds: string[];
  /** The occupation whose lists are measured, signed in. */
  measured: { occupationId: string; client: Client };
  /** A budget the measured occupation reads only through sub-budget grants, and how many it has there. */
  budgetReadThroughSubBudgets: { budgetId: string; grantedSubBudgets: number };
  /** A budget the measured occupation reads as a whole. */
  budgetReadAsWhole: string;
  /** An occupation without grants in the document, for the bulk change. */
  bulkTargetOccupationId: string;
  /** USER_ADMIN of the organisation, who changes grants. */
  userAdmin: Client;
  /** Grants given in all, for the report. */
  grantsGiven: number;
}

/** Privileges of the ordinary roles the occupations hold (no ADMIN occupation, no USER_ADMIN). */
const ROLE_PRIVILEGES = [
  ['DATA_VIEW'],
  ['DATA_VIEW', 'SCHEMA_VIEW'],
  ['CLASSIFICATION_VIEW'],
  ['DATA_VIEW', 'STATUS_VIEW'],
  ['SCHEMA_VIEW', 'CLASSIFICATION_VIEW'],
  ['ARCHIVE_VIEW', 'DATA_VIEW'],
];
/** The measured occupation reads data and schemes, as a department's budget clerk does. */
const MEASURED_PRIVILEGES = ['DATA_VIEW', 'SCHEMA_VIEW'];
const MAX_PER_CHANGE = 5_000;
const CONCURRENCY = 4;

export function expectStatus(response: LightMyRequestResponse, status: number, what: string): LightMyRequestResponse {
  if (response.statusCode !== status) throw new Error(`${what}: expected ${status}, got ${response.statusCode} ${response.body.slice(0, 1000)}`);
  return response;
}

/** Signs in through the real login route; the client carries the session cookie. */
export async function signIn(app: FastifyInstance, username: string, password: string): Promise<Client> {
  const response = expectStatus(await app.inject({ method: 'POST', url: '/initial/auth/login', payload: { username, password } }), 200, 'login');
  const session = response.cookies.find((cookie) => cookie.name === 'eelarve_session');
  if (!session) throw new Error('login gave no session cookie');
  const cookie = `${session.name}=${session.value}`;
  return { request: (options) => app.inject({ ...options, headers: { ...(options.headers ?? {}), cookie } }) };
}

/** Runs `task` for every item, a few at a time (the API serialises some writes anyway). */
async function inBatches<T, R>(items: readonly T[], task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += CONCURRENCY) {
    results.push(...(await Promise.all(items.slice(start, start + CONCURRENCY).map((item, offset) => task(item, start + offset)))));
  }
  return results;
}

export async function putPermissions(client: Client, occupationId: string, permissions: readonly PermissionInput[]): Promise<LightMyRequestResponse> {
  return client.request({ method: 'PUT', url: `/api/occupation/${occupationId}/permissions`, payload: { permissions } });
}

/** Grants in changes of at most MAX_PER_CHANGE, as the API takes them. */
async function grant(client: Client, occupationId: string, permissions: readonly PermissionInput[]): Promise<number> {
  for (let start = 0; start < permissions.length; start += MAX_PER_CHANGE) {
    expectStatus(await putPermissions(client, occupationId, permissions.slice(start, start + MAX_PER_CHANGE)), 200, 'grants');
  }
  return permissions.length;
}

/** Deterministic choice, so every run seeds the same shape. */
const pick = <T>(items: readonly T[], count: number, seed: number): T[] =>
  Array.from({ length: Math.min(count, items.length) }, (_, index) => items[(seed * 7919 + index * 104_729) % items.length] as T).filter(
    (item, index, all) => all.indexOf(item) === index,
  );

/**
 * Grants of another occupation, one of five kinds: organisation read, document read, update on a
 * few budgets, read on some budgets with update on sub-budgets of others, or nothing.
 */
function otherGrants(index: number, documentId: string, budgetIds: readonly string[], subBudgetIds: readonly string[]): PermissionInput[] {
  switch (index % 5) {
    case 0:
      return [{ read: true, update: false }];
    case 1:
      return [{ documentId, read: true, update: false }];
    case 2:
      return pick(budgetIds, 5, index).map((budgetId) => ({ documentId, budgetId, read: true, update: true }));
    case 3: {
      const [readBudgets, subBudgetBudgets] = [budgetIds.slice(0, 25), budgetIds.slice(25)];
      const budgetId = subBudgetBudgets[index % subBudgetBudgets.length] as string;
      return [
        ...pick(readBudgets, 10, index).map((id) => ({ documentId, budgetId: id, read: true, update: false })),
        ...pick(subBudgetIds, 100, index).map((subBudgetId) => ({ documentId, budgetId, subBudgetId, read: true, update: true })),
      ];
    }
    default:
      return [];
  }
}

interface Seeded {
  app: FastifyInstance;
  admin: Client;
  accounts: ReturnType<typeof accountsFixture>;
  organizationId: string;
}

/** One document, a classifier with an item per sub-budget, a scheme importing them, and the budgets. */
async function seedDocument({ app, admin, organizationId }: Seeded, size: WorldSize) {
  const fixture = schemesFixture(app);
  const document = expectStatus(
    await admin.request({
      method: 'POST',
      url: `/api/organization/${organizationId}/document`,
      payload: { name: 'Eelarve 2027', period: { year: 2027, month: 1, duration: 1 } },
    }),
    201,
    'document',
  );
  const documentId = document.json().id as string;
  const codes = Array.from({ length: size.subBudgets }, (_, index) => `K${String(index).padStart(5, '0')}`);
  const classifierId = await fixture.classifier(documentId, organizationId, 'konto', {});
  await fixture.items(classifierId, codes);
  await fixture.setMaster(documentId, classifierId);
  const scheme = expectStatus(
    await admin.request({
      method: 'POST',
      url: `/api/document/${documentId}/schema`,
      payload: { name: 'Kulud', fieldName: 'kulud', classifierList: [{ classifierId, type: 'MAIN' }] },
    }),
    201,
    'scheme',
  );
  const schemeId = scheme.json().id as string;
  const list = codes.map((code) => ({ name: `Alameelarve ${code}`, classifiers: { konto: code } }));
  const imported = expectStatus(
    await admin.request({ method: 'POST', url: `/api/schema/${schemeId}/sub-budgets/import`, payload: { importType: 'SUB_BUDGETS_WITH_PRESELECTIONS', list } }),
    200,
    'sub-budget import',
  );
  if (imported.json().imported !== size.subBudgets) throw new Error(`imported ${imported.json().imported} sub-budgets, not ${size.subBudgets}`);
  const budgetIds: string[] = [];
  for (let index = 0; index < size.budgets; index++) {
    const budget = expectStatus(
      await admin.request({ method: 'POST', url: `/api/document/${documentId}/budget`, payload: { type: 'COMMON', name: `Osakond ${index + 1}` } }),
      201,
      'budget',
    );
    budgetIds.push(budget.json().id as string);
  }
  const listed = expectStatus(await admin.request({ method: 'GET', url: `/api/schema/${schemeId}/sub-budgets` }), 200, 'sub-budgets');
  const subBudgetIds = (listed.json() as { id: string }[]).map((row) => row.id);
  return { documentId, schemeId, budgetIds, subBudgetIds };
}

/** The occupations besides the measured one: a user each, with one of the ordinary roles. */
async function seedOccupations({ accounts, organizationId }: Seeded, count: number): Promise<string[]> {
  const roleIds = await inBatches(ROLE_PRIVILEGES, (privileges, index) => accounts.role(organizationId, privileges, `Roll ${index + 1}`));
  return inBatches(Array.from({ length: count }), async (_, index) => {
    const userId = await accounts.user(organizationId, `ametnik-${index + 1}@bench.example`, `Ametnik ${index + 1}`);
    return accounts.occupation(organizationId, userId, [roleIds[index % roleIds.length] as string], `Ametikoht ${index + 1}`);
  });
}

/**
 * The measured occupation: no organisation or document grant, read on ten budgets, update on
 * ten more, and sub-budget grants (read and update) spread over ten budgets it cannot read as a
 * whole.
 */
function measuredGrants(documentId: string, budgetIds: readonly string[], subBudgetIds: readonly string[], subBudgetGrants: number): PermissionInput[] {
  const subBudgetBudgets = budgetIds.slice(20, 30);
  const perBudget = Math.ceil(subBudgetGrants / subBudgetBudgets.length);
  return [
    ...budgetIds.slice(0, 10).map((budgetId) => ({ documentId, budgetId, read: true, update: false })),
    ...budgetIds.slice(10, 20).map((budgetId) => ({ documentId, budgetId, read: true, update: true })),
    ...subBudgetBudgets.flatMap((budgetId, budgetIndex) =>
      pick(subBudgetIds, perBudget, budgetIndex + 1).map((subBudgetId, index) => ({ documentId, budgetId, subBudgetId, read: true, update: index % 2 === 0 })),
    ),
  ].slice(0, 20 + subBudgetGrants);
}

export async function seedWorld(app: FastifyInstance, size: WorldSize, log: (line: string) => void): Promise<World> {
  const admin = await signIn(app, DEMO_ADMIN.email, DEMO_ADMIN.password);
  const accounts = accountsFixture(app, admin);
  const organizationId = await accounts.organization('Bench Vallavalitsus');
  const seeded: Seeded = { app, admin, accounts, organizationId };

  let started = performance.now();
  const { documentId, schemeId, budgetIds, subBudgetIds } = await seedDocument(seeded, size);
  log(`document with ${budgetIds.length} budgets and a scheme of ${subBudgetIds.length} sub-budgets: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (budgetIds.length < 30) throw new Error('the grants of the measured occupation need at least 30 budgets');

  started = performance.now();
  const measuredMember = await accounts.member(organizationId, MEASURED_PRIVILEGES);
  const others = await seedOccupations(seeded, size.occupations - 1);
  const userAdminMember = await accounts.member(organizationId, ['USER_ADMIN', 'USER_VIEW']);
  log(
    `${others.length + 1} occupations (${ROLE_PRIVILEGES.length} ordinary roles) and a user administrator: ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  started = performance.now();
  const userAdmin = await signIn(app, userAdminMember.email, PASSWORD);
  const mine = measuredGrants(documentId, budgetIds, subBudgetIds, size.measuredSubBudgetGrants);
  let grantsGiven = await grant(userAdmin, measuredMember.occupationId, mine);
  // The last occupation stays without grants: the bulk change's target.
  const bulkTargetOccupationId = others.at(-1) as string;
  const counts = await inBatches(others.slice(0, -1), (occupationId, index) => {
    const grants = otherGrants(index, documentId, budgetIds, subBudgetIds);
    return grants.length ? grant(userAdmin, occupationId, grants) : Promise.resolve(0);
  });
  grantsGiven += counts.reduce((sum, count) => sum + count, 0);
  log(`${grantsGiven} grants (${mine.length} of the measured occupation): ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const throughSubBudgets = budgetIds[20] as string;
  return {
    organizationId,
    documentId,
    schemeId,
    budgetIds,
    subBudgetIds,
    measured: { occupationId: measuredMember.occupationId, client: await signIn(app, measuredMember.email, PASSWORD) },
    budgetReadThroughSubBudgets: {
      budgetId: throughSubBudgets,
      grantedSubBudgets: mine.filter((input) => input.budgetId === throughSubBudgets && input.subBudgetId).length,
    },
    budgetReadAsWhole: budgetIds[0] as string,
    bulkTargetOccupationId,
    userAdmin,
    grantsGiven,
  };
}
