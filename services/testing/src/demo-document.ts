import { DEFAULT_RESOURCE_STATUSES } from '@eelarve/shared';
import type { DemoSession } from './demo-session';

/**
 * A demo budget document for the first organisation, made through the product's own HTTP routes
 * (demo-session.ts): classifiers with items and groupings, a master classifier, a scheme with
 * sub-budgets and preselections, and budgets of all three types with tags and pinned sub-budgets.
 * The organisation uses resource statuses, so the document and its budgets carry one; the
 * investments budget is submitted for approval (`submitInvestments`, locked, with its first
 * history entry) once its records are in (demo-records.ts).
 */
const TEGEVUSALAD: Record<string, string> = {
  '01': 'Üldised valitsussektori teenused',
  '04': 'Majandus',
  '08': 'Vaba aeg, kultuur ja religioon',
  '09': 'Haridus',
};
const KULULIIGID: Record<string, string> = { '50': 'Tööjõukulud', '55': 'Majandamiskulud', '15': 'Põhivara soetus', '45': 'Antud toetused' };
const ALLIKAD: Record<string, string> = { RE: 'Riigieelarve', OT: 'Omatulu', VV: 'Välisvahendid' };

export const MAIN_BUDGET = 'Linna põhitegevus';
export const INVESTMENTS_BUDGET = 'Investeeringud';
/** The investments budget's submission comment, the first entry of its approval history. */
export const SUBMISSION_COMMENT = 'Investeeringute kava on valmis, palun kinnitage.';

/** The default status every organisation using statuses has, by its Estonian name. */
function defaultStatusId(name: string): string {
  const status = DEFAULT_RESOURCE_STATUSES.find((candidate) => candidate.name.et === name);
  if (!status) throw new Error(`demo: no default resource status ${name}`);
  return status.id;
}
const IN_PREPARATION = defaultStatusId('Koostamisel');

/** What the department's grants (demo-department.ts) point at. */
export interface DemoDocument {
  documentId: string;
  schemeId: string;
  mainBudgetId: string;
  investmentsBudgetId: string;
  /** Sub-budget ids by activity code (01, 04, 08, 09). */
  subBudgetIds: Record<string, string>;
}

export async function seedDemoDocument({ post, put }: DemoSession, organizationId: string): Promise<DemoDocument> {
  const period = { year: new Date().getFullYear() + 1, month: 1, duration: 1 };
  const settings = { name: `Eelarve ${period.year}`, description: 'Linna põhieelarve ja selle täitmine', period, resourceStatusId: IN_PREPARATION };
  const documentId = await post(`/api/organization/${organizationId}/document`, settings);
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
  await put(`/api/document/${documentId}`, { ...settings, masterClassifierId: activity });
  const expense = await classifier('Kululiik', 'kululiik', { codeSettings: { typeName: 'Number', minLength: 2, maxLength: 6, hierarchical: true } });
  await items(expense, KULULIIGID);
  const source = await classifier('Allikas', 'allikas');
  await items(source, ALLIKAD);

  const schemeId = await post(`/api/document/${documentId}/schema`, {
    name: 'Tegevusalad',
    description: 'Alameelarved tegevusalade kaupa',
    // The activity alone: a record falls in a sub-budget when its values in the scheme's
    // classifiers equal the sub-budget's (spec 3, section 5), so lines of every source fit.
    classifierList: [{ classifierId: activity, type: 'MAIN' }],
  });
  const subBudgetIds: Record<string, string> = {};
  for (const [code, name] of Object.entries(TEGEVUSALAD))
    subBudgetIds[code] = await post(`/api/schema/${schemeId}/sub-budget`, { name, classifiers: { [activity]: code } });
  await put(`/api/sub-budget/${subBudgetIds['09']}/classifier-preselections`, { preselections: { [expense]: ['50', '55'], [source]: ['RE', 'OT'] } });

  const budget = (payload: object) => post(`/api/document/${documentId}/budget`, { resourceStatusId: IN_PREPARATION, ...payload });
  const mainBudgetId = await budget({ type: 'COMMON', name: MAIN_BUDGET, description: 'Tegevuskulud tegevusalade kaupa', tags: ['põhitegevus'] });
  const investmentsBudgetId = await budget({ type: 'COMMON', name: INVESTMENTS_BUDGET, tags: ['investeeringud'] });
  await budget({ type: 'MONITORING', name: 'Täitmine (ERP)', tags: ['täitmine'] });
  await budget({ type: 'SUM_BUDGET', name: 'Kokku', sumBudgetComponentIds: [mainBudgetId, investmentsBudgetId] });
  await put(`/api/budget/${mainBudgetId}/schema/${schemeId}/settings`, { pinned: [subBudgetIds['01'], subBudgetIds['08'], subBudgetIds['09']] });
  await put(`/api/budget/${investmentsBudgetId}/schema/${schemeId}/settings`, { pinned: [subBudgetIds['04'], subBudgetIds['09']] });
  return { documentId, schemeId, mainBudgetId, investmentsBudgetId, subBudgetIds };
}

/**
 * Last: a submitted budget is locked ("Kinnitamisel"), its settings and records included, so it
 * is submitted once its records are in. Approving it is left to another status administrator
 * (four eyes: the administrator submitted it).
 */
export async function submitInvestments({ call }: DemoSession, demo: DemoDocument): Promise<void> {
  await call({ method: 'POST', url: `/api/budget/${demo.investmentsBudgetId}/approval/submit`, payload: { comment: SUBMISSION_COMMENT } });
}
