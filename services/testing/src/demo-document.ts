import type { FastifyInstance, InjectOptions } from 'fastify';
import { sessionCookieName } from '@eelarve/gateway/features/auth/sessions';

/**
 * A demo budget document for the first organisation, made through the product's own HTTP routes
 * as the platform administrator (so every rule applies): the administrator gets the
 * organisation's ADMIN occupation and works in it, and the document has classifiers with items
 * and groupings, a master classifier, a scheme with sub-budgets and preselections, and budgets of
 * all three types with tags and pinned sub-budgets.
 */
const TEGEVUSALAD: Record<string, string> = {
  '01': 'Üldised valitsussektori teenused',
  '04': 'Majandus',
  '08': 'Vaba aeg, kultuur ja religioon',
  '09': 'Haridus',
};
const KULULIIGID: Record<string, string> = { '50': 'Tööjõukulud', '55': 'Majandamiskulud', '15': 'Põhivara soetus', '45': 'Antud toetused' };
const ALLIKAD: Record<string, string> = { RE: 'Riigieelarve', OT: 'Omatulu', VV: 'Välisvahendid' };

type Session = (options: InjectOptions, expected?: number) => Promise<{ id?: string } & Record<string, unknown>>;

async function signIn(app: FastifyInstance): Promise<Session> {
  if (!app.config.bootstrapAdmin) throw new Error('demo data needs the bootstrap administrator (BOOTSTRAP_ADMIN_EMAIL and _PASSWORD)');
  const { email, password } = app.config.bootstrapAdmin;
  const login = await app.inject({ method: 'POST', url: '/initial/auth/login', payload: { username: email, password } });
  const cookie = login.cookies.find((candidate) => candidate.name === sessionCookieName(app.config));
  if (login.statusCode !== 200 || !cookie) throw new Error(`demo sign-in failed: ${login.statusCode}`);
  return async (options, expected = 200) => {
    const response = await app.inject({ ...options, headers: { ...(options.headers ?? {}), cookie: `${cookie.name}=${cookie.value}` } });
    if (response.statusCode !== expected) throw new Error(`demo ${options.method} ${options.url}: ${response.statusCode} ${response.body}`);
    return response.body ? response.json() : {};
  };
}

export async function seedDemoDocument(app: FastifyInstance, organizationId: string): Promise<string> {
  const call = await signIn(app);
  const post = async (url: string, payload: object) => (await call({ method: 'POST', url, payload }, 201)).id as string;
  const put = (url: string, payload: object) => call({ method: 'PUT', url, payload });

  await call({ method: 'POST', url: `/api/admin/${organizationId}` });
  const me = await call({ method: 'GET', url: '/api/auth/me' });
  const occupations = (me.occupations ?? []) as { id: string; organizationId: string }[];
  const occupation = occupations.find((candidate) => candidate.organizationId === organizationId);
  if (!occupation) throw new Error('demo: no occupation in the organisation');
  await call({ method: 'POST', url: '/api/auth/switch', payload: { occupationId: occupation.id } });

  const period = { year: new Date().getFullYear() + 1, month: 1, duration: 1 };
  const documentName = `Eelarve ${period.year}`;
  const documentId = await post(`/api/organization/${organizationId}/document`, {
    name: documentName,
    description: 'Linna põhieelarve ja selle täitmine',
    period,
  });
  const classifier = (name: string, fieldName: string, changes: object = {}) =>
    post(`/api/document/${documentId}/classifier`, {
      name,
      itemName: name,
      fieldName,
      codeSettings: { typeName: 'Code', minLength: 2, maxLength: 10, hierarchical: false },
      ...changes,
    });
  const items = async (classifierId: string, names: Record<string, string>, extra: (code: string) => object = () => ({})) => {
    const ids: Record<string, string> = {};
    for (const [code, name] of Object.entries(names)) ids[code] = await post(`/api/classifier/${classifierId}/item`, { code, name, ...extra(code) });
    return ids;
  };

  const activity = await classifier('Tegevusala', 'tegevusala', { required: true });
  await items(activity, TEGEVUSALAD);
  await put(`/api/document/${documentId}`, { name: documentName, description: 'Linna põhieelarve ja selle täitmine', period, masterClassifierId: activity });
  const expense = await classifier('Kululiik', 'kululiik', { codeSettings: { typeName: 'Number', minLength: 2, maxLength: 6, hierarchical: true } });
  await items(expense, KULULIIGID);
  const source = await classifier('Allikas', 'allikas');
  await items(source, ALLIKAD);

  const schemeId = await post(`/api/document/${documentId}/schema`, {
    name: 'Tegevusalad',
    description: 'Alameelarved tegevusalade kaupa',
    classifierList: [
      { classifierId: activity, type: 'MAIN' },
      { classifierId: source, type: 'SECONDARY' },
    ],
  });
  const subBudgets: Record<string, string> = {};
  for (const [code, name] of Object.entries(TEGEVUSALAD))
    subBudgets[code] = await post(`/api/schema/${schemeId}/sub-budget`, { name, classifiers: { [activity]: code } });
  await put(`/api/sub-budget/${subBudgets['09']}/classifier-preselections`, { preselections: { [expense]: ['50', '55'], [source]: ['RE', 'OT'] } });

  const budget = (payload: object) => post(`/api/document/${documentId}/budget`, payload);
  const main = await budget({ type: 'COMMON', name: 'Linna põhitegevus', description: 'Tegevuskulud tegevusalade kaupa', tags: ['põhitegevus'] });
  const investments = await budget({ type: 'COMMON', name: 'Investeeringud', tags: ['investeeringud'] });
  await budget({ type: 'MONITORING', name: 'Täitmine (ERP)', tags: ['täitmine'] });
  await budget({ type: 'SUM_BUDGET', name: 'Kokku', sumBudgetComponentIds: [main, investments] });
  await put(`/api/budget/${main}/schema/${schemeId}/settings`, { pinned: [subBudgets['01'], subBudgets['08'], subBudgets['09']] });
  await put(`/api/budget/${investments}/schema/${schemeId}/settings`, { pinned: [subBudgets['04'], subBudgets['09']] });
  return documentId;
}
