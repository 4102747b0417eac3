import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GivenEvent, type ProjectorSpec, newId, projectorSpec } from '../../test/given-events';
import { budgetsProjector } from '../budgets/projector';
import { classifiersProjector } from '../classifiers/projector';
import { documentsProjector } from '../documents/projector';
import { permissionsProjector } from '../permissions/projector';
import { recordsProjector } from '../records/projector';
import { schemesProjector } from './projector';
import {
  classifierCatalogue,
  documentClassifierIds,
  findBudgetRef,
  findScheme,
  findSubBudget,
  listDocumentSchemes,
  listOrganizationSchemes,
  listSubBudgets,
  pinnedSubBudgetIds,
  schemePreselections,
  subBudgetCounts,
  budgetPinnedSubBudgets,
  budgetPins,
  budgetsWithRecordsInSubBudget,
  documentSchemesInOrder,
  schemeRecordCounts,
  subBudgetsAsJson,
  subBudgetsOfSchemes,
  subBudgetsWithRecords,
} from './queries';

let spec: ProjectorSpec;
// The schemes queries also read documents (master classifier), classifiers (catalogue), budgets (sub-budget paths), records (counts) and grants (a budget's list): their projectors run beside.
beforeEach(async () => {
  spec = await projectorSpec([schemesProjector, documentsProjector, classifiersProjector, budgetsProjector, recordsProjector, permissionsProjector] as never);
});
afterEach(async () => spec.close());

const organizationId = newId();
const [main, secondary] = [newId(), newId()];
const classifierList = [
  { classifierId: main, type: 'MAIN' as const },
  { classifierId: secondary, type: 'SECONDARY' as const },
];

const schemesEvent = (documentId: string, type: string, data: object): GivenEvent => ({
  stream: `document-schemes-${documentId}`,
  type,
  data: { documentId, organizationId, ...data },
});

function schemeCreated(documentId: string, name: string, displayOrder: number, list = classifierList) {
  const schemeId = newId();
  return {
    schemeId,
    event: schemesEvent(documentId, 'SchemeCreated', {
      schemeId,
      name,
      fieldName: name.toLowerCase(),
      description: `${name} eelarve järgi`,
      displayOrder,
      classifierList: list,
    }),
  };
}

const subBudget = (name: string, classifiers: Record<string, string>, preselections: Record<string, string[]> = {}) => ({
  subBudgetId: newId(),
  name,
  classifiers,
  preselections,
});

const documentEvent = (documentId: string, type: string, data: object = {}): GivenEvent => ({
  stream: `document-${documentId}`,
  type,
  data: {
    documentId,
    organizationId,
    name: 'Eelarve 2027',
    description: '',
    period: { year: 2027, month: 1, duration: 1 },
    recordAmountKey: 'amount',
    allowCommentingWithReadPermissions: false,
    resourceStatusId: null,
    ...data,
  },
});

function budgetCreated(documentId: string, type: 'COMMON' | 'SUM_BUDGET' = 'COMMON') {
  const budgetId = newId();
  return {
    budgetId,
    event: {
      stream: `budget-${budgetId}`,
      type: 'BudgetCreated',
      data: {
        budgetId,
        documentId,
        organizationId,
        type,
        name: 'Haridusosakond',
        description: '',
        tags: [],
        resourceStatusId: null,
        sumBudgetComponentIds: [],
        gwUrl: null,
        erpUrl: null,
        createdAt: '2026-11-02T08:00:00.000Z',
      },
    } satisfies GivenEvent,
  };
}

describe('schemes projector', () => {
  it('given records of two budgets, counts them per sub-budget (and in none: -2), finds the sub-budgets holding records and the budgets matching one', async () => {
    const documentId = newId();
    const { schemeId, event } = schemeCreated(documentId, 'Tegevusalad', 1);
    const [education, culture] = [subBudget('Haridus', { [main]: '09' }), subBudget('Kultuur', { [main]: '08' })];
    const [first, second] = [budgetCreated(documentId), budgetCreated(documentId)];
    const importId = newId();
    const row = (classifiers: Record<string, string>) => ({ recordId: newId(), name: 'Rida', amount: '1', months: null, classifiers });
    const imported = (budgetId: string, records: ReturnType<typeof row>[], chunk: number): GivenEvent => ({
      stream: `record-import-${importId}`,
      type: 'RecordsImported',
      data: { importId, budgetId, documentId, organizationId, chunk, originResourceName: 'kirjed.xlsx', records },
    });
    await spec.given(
      documentEvent(documentId, 'DocumentCreated', { createdAt: '2026-11-02T08:00:00.000Z' }),
      event,
      schemesEvent(documentId, 'SubBudgetsAdded', { schemeId, subBudgets: [education, culture] }),
      first.event,
      second.event,
      imported(
        first.budgetId,
        [
          row({ [main]: '09' }),
          row({ [main]: '09', other: 'x' }),
          // A secondary value the sub-budget leaves empty: the record fits no sub-budget of the scheme.
          row({ [main]: '09', [secondary]: 'RE' }),
        ],
        0,
      ),
      imported(second.budgetId, [row({ [main]: '09' })], 1),
    );
    const counts = (budgetId: string | null) => schemeRecordCounts(spec.read, schemeId, budgetId).then((answer) => Object.fromEntries(answer.counts));
    expect(await counts(first.budgetId)).toEqual({ [education.subBudgetId]: 2, '-2': 1 });
    expect(await counts(null)).toEqual({ [education.subBudgetId]: 3, '-2': 1 });
    expect(await subBudgetsWithRecords(spec.read, [education.subBudgetId, culture.subBudgetId])).toEqual([education.subBudgetId]);
    expect(await subBudgetsWithRecords(spec.read, [education.subBudgetId], second.budgetId)).toEqual([education.subBudgetId]);
    expect(await subBudgetsWithRecords(spec.read, [culture.subBudgetId], first.budgetId)).toEqual([]);
    const listed = JSON.parse(await subBudgetsAsJson(spec.read, schemeId, { budgetId: first.budgetId, update: { kind: 'all' } } as never));
    expect(listed.map((entry: { id: string; recordsCount: number }) => [entry.id, entry.recordsCount])).toEqual([
      [education.subBudgetId, 2],
      [culture.subBudgetId, 0],
      ['-2', 1],
    ]);
    expect((await budgetsWithRecordsInSubBudget(spec.read, education.subBudgetId, first.budgetId)).map((entry) => [entry.id, entry.records_count])).toEqual([
      [second.budgetId, 1],
    ]);
  });

  it("given created schemes, lists a document's and an organisation's schemes by display order with their sub-budget counts", async () => {
    const [documentId, otherDocumentId] = [newId(), newId()];
    const costs = schemeCreated(documentId, 'Kulud', 1);
    const income = schemeCreated(documentId, 'Tulud', 0);
    const investments = schemeCreated(otherDocumentId, 'Investeeringud', 0);
    await spec.given(
      costs.event,
      income.event,
      investments.event,
      schemesEvent(documentId, 'SubBudgetsAdded', {
        schemeId: costs.schemeId,
        subBudgets: [subBudget('Haridus', { [main]: '09' }), subBudget('Kultuur', { [main]: '08' })],
      }),
    );
    expect(await findScheme(spec.read, costs.schemeId)).toEqual({
      id: costs.schemeId,
      document_id: documentId,
      organization_id: organizationId,
      name: 'Kulud',
      field_name: 'kulud',
      description: 'Kulud eelarve järgi',
      display_order: 1,
      classifier_list: classifierList,
    });
    expect((await listDocumentSchemes(spec.read, documentId)).map((row) => [row.name, row.sub_budgets_count])).toEqual([
      ['Tulud', 0],
      ['Kulud', 2],
    ]);
    expect((await listOrganizationSchemes(spec.read, organizationId)).map((row) => row.name)).toEqual(['Investeeringud', 'Tulud', 'Kulud']);
    expect(await findScheme(spec.read, newId())).toBeUndefined();
  });

  it('given an update, a reorder and a delete, keeps the survivors with their new fields, order and classifiers', async () => {
    const documentId = newId();
    const costs = schemeCreated(documentId, 'Kulud', 0);
    const income = schemeCreated(documentId, 'Tulud', 1);
    const other = schemeCreated(documentId, 'Muu', 2);
    const pinned = subBudget('Muu', { [main]: '01' });
    const budget = budgetCreated(documentId);
    await spec.given(
      costs.event,
      income.event,
      other.event,
      schemesEvent(documentId, 'SchemeUpdated', {
        schemeId: costs.schemeId,
        name: 'Põhikulud',
        fieldName: 'pohikulud',
        description: '',
        displayOrder: 0,
        classifierList: [classifierList[0]],
      }),
      schemesEvent(documentId, 'SchemesReordered', {
        list: [
          { id: income.schemeId, displayOrder: 0 },
          { id: costs.schemeId, displayOrder: 1 },
        ],
      }),
      schemesEvent(documentId, 'SubBudgetsAdded', { schemeId: other.schemeId, subBudgets: [pinned] }),
      schemesEvent(documentId, 'SubBudgetsPinned', { schemeId: other.schemeId, budgetId: budget.budgetId, pinned: [pinned.subBudgetId] }),
      schemesEvent(documentId, 'SchemeDeleted', { schemeId: other.schemeId }),
    );
    expect((await listDocumentSchemes(spec.read, documentId)).map((row) => [row.name, row.field_name, row.display_order, row.classifier_list])).toEqual([
      ['Tulud', 'tulud', 0, classifierList],
      ['Põhikulud', 'pohikulud', 1, [classifierList[0]]],
    ]);
    // A deleted scheme pins nothing any more.
    expect(await pinnedSubBudgetIds(spec.read, other.schemeId, budget.budgetId)).toEqual([]);
    const usedBy = await spec.read
      .selectFrom('scheme_classifiers')
      .select(['scheme_id', 'classifier_id', 'type'])
      .where('document_id', '=', documentId)
      .orderBy('scheme_id')
      .execute();
    expect(usedBy).toEqual(
      expect.arrayContaining([
        { scheme_id: costs.schemeId, classifier_id: main, type: 'MAIN' },
        { scheme_id: income.schemeId, classifier_id: main, type: 'MAIN' },
        { scheme_id: income.schemeId, classifier_id: secondary, type: 'SECONDARY' },
      ]),
    );
    expect(usedBy).toHaveLength(3);
  });

  it('given sub-budgets added, updated, preselected and deleted, lists them by name with their values', async () => {
    const documentId = newId();
    const costs = schemeCreated(documentId, 'Kulud', 0);
    const [education, culture, sport] = [
      subBudget('Haridus', { [main]: '09' }, { [secondary]: ['RIIK'] }),
      subBudget('Kultuur', { [main]: '08' }),
      subBudget('Sport', { [main]: '081' }),
    ];
    await spec.given(
      costs.event,
      schemesEvent(documentId, 'SubBudgetsAdded', { schemeId: costs.schemeId, subBudgets: [sport, education, culture] }),
      schemesEvent(documentId, 'SubBudgetUpdated', {
        schemeId: costs.schemeId,
        subBudgetId: culture.subBudgetId,
        name: 'Kultuur ja muuseumid',
        classifiers: { [main]: '082', [secondary]: 'LINN' },
      }),
      schemesEvent(documentId, 'ClassifierPreselectionsSet', {
        schemeId: costs.schemeId,
        list: [{ subBudgetId: culture.subBudgetId, preselections: { [secondary]: ['LINN', 'RIIK'] } }],
      }),
      schemesEvent(documentId, 'SubBudgetsDeleted', { schemeId: costs.schemeId, subBudgetIds: [sport.subBudgetId] }),
    );
    expect((await listSubBudgets(spec.read, costs.schemeId)).map((row) => [row.name, row.classifiers, row.preselections])).toEqual([
      ['Haridus', { [main]: '09' }, { [secondary]: ['RIIK'] }],
      ['Kultuur ja muuseumid', { [main]: '082', [secondary]: 'LINN' }, { [secondary]: ['LINN', 'RIIK'] }],
    ]);
    expect(await findSubBudget(spec.read, culture.subBudgetId)).toMatchObject({
      id: culture.subBudgetId,
      scheme_id: costs.schemeId,
      document_id: documentId,
      organization_id: organizationId,
    });
    expect(await findSubBudget(spec.read, sport.subBudgetId)).toBeUndefined();
    expect(await schemePreselections(spec.read, costs.schemeId)).toEqual([
      { id: education.subBudgetId, preselections: { [secondary]: ['RIIK'] } },
      { id: culture.subBudgetId, preselections: { [secondary]: ['LINN', 'RIIK'] } },
    ]);
    // The item rules ask which values sub-budgets use: the updated values replace the old ones.
    const values = await spec.read
      .selectFrom('sub_budget_values')
      .select(['sub_budget_id', 'classifier_id', 'code'])
      .where('document_id', '=', documentId)
      .execute();
    expect(values).toHaveLength(3);
    expect(values).toEqual(
      expect.arrayContaining([
        { sub_budget_id: education.subBudgetId, classifier_id: main, code: '09' },
        { sub_budget_id: culture.subBudgetId, classifier_id: main, code: '082' },
        { sub_budget_id: culture.subBudgetId, classifier_id: secondary, code: 'LINN' },
      ]),
    );
  });

  it('given pins of several budgets, counts them per budget; a deleted budget pins nothing', async () => {
    const documentId = newId();
    const costs = schemeCreated(documentId, 'Kulud', 0);
    const [education, culture] = [subBudget('Haridus', { [main]: '09' }), subBudget('Kultuur', { [main]: '08' })];
    const [school, museum] = [budgetCreated(documentId), budgetCreated(documentId)];
    await spec.given(
      school.event,
      museum.event,
      costs.event,
      schemesEvent(documentId, 'SubBudgetsAdded', { schemeId: costs.schemeId, subBudgets: [education, culture] }),
      schemesEvent(documentId, 'SubBudgetsPinned', {
        schemeId: costs.schemeId,
        budgetId: school.budgetId,
        pinned: [education.subBudgetId, culture.subBudgetId],
      }),
      schemesEvent(documentId, 'SubBudgetsPinned', { schemeId: costs.schemeId, budgetId: museum.budgetId, pinned: [culture.subBudgetId] }),
      // Pinning again replaces the budget's list.
      schemesEvent(documentId, 'SubBudgetsPinned', { schemeId: costs.schemeId, budgetId: school.budgetId, pinned: [education.subBudgetId] }),
    );
    expect(await subBudgetCounts(spec.read, costs.schemeId)).toEqual({ total: 2, pinnedByBudget: { [school.budgetId]: 1, [museum.budgetId]: 1 } });
    expect(await pinnedSubBudgetIds(spec.read, costs.schemeId, school.budgetId)).toEqual([education.subBudgetId]);
    // What a budget copy reads: the source's schemes in order, its pins and the target scheme's sub-budgets.
    expect(await documentSchemesInOrder(spec.read, documentId)).toEqual([
      { id: costs.schemeId, name: 'Kulud', field_name: expect.any(String), display_order: 0 },
    ]);
    expect(await budgetPins(spec.read, school.budgetId)).toEqual([{ scheme_id: costs.schemeId, sub_budget_id: education.subBudgetId }]);
    expect(await budgetPinnedSubBudgets(spec.read, museum.budgetId)).toEqual([{ id: culture.subBudgetId, scheme_id: costs.schemeId, name: 'Kultuur' }]);
    expect((await subBudgetsOfSchemes(spec.read, [costs.schemeId])).map((row) => row.name).sort()).toEqual(['Haridus', 'Kultuur']);
    expect(await subBudgetsOfSchemes(spec.read, [])).toEqual([]);
    expect(await findBudgetRef(spec.read, museum.budgetId)).toEqual({
      id: museum.budgetId,
      document_id: documentId,
      organization_id: organizationId,
      type: 'COMMON',
    });
    await spec.given({ stream: `budget-${museum.budgetId}`, type: 'BudgetDeleted', data: { budgetId: museum.budgetId, documentId, organizationId } });
    expect(await subBudgetCounts(spec.read, costs.schemeId)).toEqual({ total: 2, pinnedByBudget: { [school.budgetId]: 1 } });
    // A sub-budget deleted is unpinned everywhere.
    await spec.given(schemesEvent(documentId, 'SubBudgetsDeleted', { schemeId: costs.schemeId, subBudgetIds: [education.subBudgetId] }));
    expect(await subBudgetCounts(spec.read, costs.schemeId)).toEqual({ total: 1, pinnedByBudget: {} });
  });

  it('given a deleted document, its schemes, sub-budgets, values and pins are gone', async () => {
    const [documentId, keptDocumentId] = [newId(), newId()];
    const costs = schemeCreated(documentId, 'Kulud', 0);
    const kept = schemeCreated(keptDocumentId, 'Kulud', 0);
    const budget = budgetCreated(documentId);
    const education = subBudget('Haridus', { [main]: '09' });
    await spec.given(
      documentEvent(documentId, 'DocumentCreated', { createdAt: '2026-11-01T08:00:00.000Z' }),
      costs.event,
      kept.event,
      schemesEvent(documentId, 'SubBudgetsAdded', { schemeId: costs.schemeId, subBudgets: [education] }),
      schemesEvent(documentId, 'SubBudgetsPinned', { schemeId: costs.schemeId, budgetId: budget.budgetId, pinned: [education.subBudgetId] }),
      { stream: `document-${documentId}`, type: 'DocumentDeleted', data: { documentId, organizationId } },
    );
    expect(await listDocumentSchemes(spec.read, documentId)).toEqual([]);
    expect(await findSubBudget(spec.read, education.subBudgetId)).toBeUndefined();
    expect(await pinnedSubBudgetIds(spec.read, costs.schemeId, budget.budgetId)).toEqual([]);
    expect(await spec.read.selectFrom('sub_budget_values').selectAll().where('document_id', '=', documentId).execute()).toEqual([]);
    expect(await spec.read.selectFrom('scheme_classifiers').selectAll().where('document_id', '=', documentId).execute()).toEqual([]);
    expect((await listDocumentSchemes(spec.read, keptDocumentId)).map((row) => row.id)).toEqual([kept.schemeId]);
  });

  it("gives the sub-budget rules their catalogue: the document's classifiers, its master and only the items named", async () => {
    const documentId = newId();
    const classifier = (classifierId: string, fieldName: string): GivenEvent => ({
      stream: `classifier-${classifierId}`,
      type: 'ClassifierCreated',
      data: {
        classifierId,
        documentId,
        organizationId,
        groupingId: null,
        name: fieldName,
        itemName: fieldName,
        fieldName,
        description: '',
        required: false,
        itemCanChangeSign: false,
        primary: false,
        primaryGroupedById: null,
        displayOrder: 0,
        displayMode: 'CODE_AND_NAME',
        codeSettings: { typeName: 'Code', typeRegex: '^.+$', regexFlag: '', minLength: 1, maxLength: 20, hierarchical: false, ranking: 0 },
      },
    });
    const items = (classifierId: string, codes: Record<string, boolean>): GivenEvent => ({
      stream: `classifier-${classifierId}`,
      type: 'ClassifierItemsAdded',
      data: {
        classifierId,
        documentId,
        organizationId,
        items: Object.entries(codes).map(([code, unselectable]) => ({
          id: newId(),
          code,
          name: code,
          description: '',
          sign: null,
          unselectable,
          groupedBy: [],
        })),
      },
    });
    await spec.given(
      documentEvent(documentId, 'DocumentCreated', { createdAt: '2026-11-01T08:00:00.000Z' }),
      classifier(main, 'tegevusala'),
      classifier(secondary, 'allikas'),
      items(main, { '09': false, '08': false, '01': true }),
      items(secondary, { RIIK: false, LINN: true }),
      documentEvent(documentId, 'DocumentUpdated', { masterClassifierId: main }),
    );
    expect(await classifierCatalogue(spec.read, documentId, [' 09 ', '01', 'LINN', 'PUUDU', ''])).toEqual({
      masterClassifierId: main,
      classifiers: {
        [main]: { fieldName: 'tegevusala', items: { '09': { selectable: true }, '01': { selectable: false } } },
        [secondary]: { fieldName: 'allikas', items: { LINN: { selectable: false } } },
      },
    });
    expect(await classifierCatalogue(spec.read, newId(), ['09'])).toEqual({ masterClassifierId: null, classifiers: {} });
    expect((await documentClassifierIds(spec.read, documentId)).sort()).toEqual([main, secondary].sort());
  });
});
