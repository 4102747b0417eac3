import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GivenEvent, type ProjectorSpec, newId, projectorSpec } from '../../test/given-events';
import { documentsProjector } from '../documents/projector';
import { recordsProjector } from '../records/projector';
import { schemesProjector } from '../schemes/projector';
import { classifiersProjector } from './projector';
import {
  classifierContext,
  classifiersWithFieldName,
  classifierUsedInScheme,
  findClassifier,
  findItemsInUse,
  groupingContexts,
  listClassifiers,
  listItems,
  recordsWithoutClassifierValue,
  usedIds,
} from './queries';

let spec: ProjectorSpec;
// The classifier queries also read documents (master classifier), schemes (use in schemes, sub-budget values) and records (items in use, values missing): their projectors run beside.
beforeEach(async () => {
  spec = await projectorSpec([classifiersProjector, documentsProjector, schemesProjector, recordsProjector] as never);
});
afterEach(async () => spec.close());

const organizationId = newId();
const codeSettings = { typeName: 'Number', typeRegex: '^[0-9]+$', regexFlag: '', minLength: 2, maxLength: 6, hierarchical: true, ranking: 1 };

interface ClassifierSetup {
  classifierId?: string;
  documentId: string;
  name: string;
  fieldName: string;
  groupingId?: string | null;
  displayOrder?: number;
  required?: boolean;
}

const definition = ({ name, fieldName, displayOrder = 0, required = false }: ClassifierSetup) => ({
  name,
  itemName: `${name} (väärtus)`,
  fieldName,
  description: `${name}: eelarve klassifikaator`,
  required,
  itemCanChangeSign: false,
  primary: false,
  primaryGroupedById: null,
  displayOrder,
  displayMode: 'CODE_AND_NAME',
  codeSettings,
});

function classifierCreated(setup: ClassifierSetup) {
  const classifierId = setup.classifierId ?? newId();
  return {
    stream: `classifier-${classifierId}`,
    type: 'ClassifierCreated',
    data: { classifierId, documentId: setup.documentId, organizationId, groupingId: setup.groupingId ?? null, ...definition(setup) },
  } satisfies GivenEvent;
}

const classifierEvent = (classifierId: string, documentId: string, type: string, data: object): GivenEvent => ({
  stream: `classifier-${classifierId}`,
  type,
  data: { classifierId, documentId, organizationId, ...data },
});

const item = (
  code: string,
  name: string,
  more: { unselectable?: boolean; groupedBy?: { classifierId: string; itemId: string }[]; sign?: 1 | -1 | null } = {},
) => ({
  id: newId(),
  code,
  name,
  description: '',
  sign: more.sign ?? null,
  unselectable: more.unselectable ?? false,
  groupedBy: more.groupedBy ?? [],
});

const documentCreated = (documentId: string): GivenEvent => ({
  stream: `document-${documentId}`,
  type: 'DocumentCreated',
  data: {
    documentId,
    organizationId,
    name: 'Eelarve 2027',
    description: '',
    period: { year: 2027, month: 1, duration: 1 },
    recordAmountKey: 'amount',
    allowCommentingWithReadPermissions: false,
    resourceStatusId: null,
    createdAt: '2026-11-01T08:00:00.000Z',
  },
});

const masterChosen = (documentId: string, masterClassifierId: string): GivenEvent => ({
  stream: `document-${documentId}`,
  type: 'DocumentUpdated',
  data: {
    documentId,
    organizationId,
    name: 'Eelarve 2027',
    description: '',
    period: { year: 2027, month: 1, duration: 1 },
    recordAmountKey: 'amount',
    allowCommentingWithReadPermissions: false,
    resourceStatusId: null,
    masterClassifierId,
  },
});

describe('classifiers projector', () => {
  it('given a created classifier, finds it with its definition and code settings', async () => {
    const documentId = newId();
    const created = classifierCreated({ documentId, name: 'Tegevusala', fieldName: 'tegevusala', displayOrder: 3, required: true });
    await spec.given(created);
    expect(await findClassifier(spec.read, created.data.classifierId)).toEqual({
      id: created.data.classifierId,
      document_id: documentId,
      organization_id: organizationId,
      name: 'Tegevusala',
      item_name: 'Tegevusala (väärtus)',
      field_name: 'tegevusala',
      description: 'Tegevusala: eelarve klassifikaator',
      required: true,
      item_can_change_sign: false,
      is_primary: false,
      grouping_id: null,
      primary_grouped_by_id: null,
      display_order: 3,
      display_mode: 'CODE_AND_NAME',
      code_type: 'Number',
      type_regex: '^[0-9]+$',
      regex_flag: '',
      min_length: 2,
      max_length: 6,
      hierarchical: true,
      ranking: 1,
    });
    expect(await findClassifier(spec.read, newId())).toBeUndefined();
  });

  it("lists a document's classifiers by display order with their groupings, master flag, scheme use and item counts", async () => {
    const documentId = newId();
    const master = classifierCreated({ documentId, name: 'Tegevusala', fieldName: 'tegevusala', displayOrder: 1 });
    const grouping = classifierCreated({ documentId, name: 'Tulu või kulu', fieldName: 'liik', groupingId: master.data.classifierId, displayOrder: 2 });
    const source = classifierCreated({ documentId, name: 'Allikas', fieldName: 'allikas', displayOrder: 0 });
    const schemeId = newId();
    await spec.given(
      documentCreated(documentId),
      master,
      grouping,
      source,
      classifierEvent(master.data.classifierId, documentId, 'ClassifierItemsAdded', {
        items: [item('01', 'Üldised valitsussektori teenused'), item('09', 'Haridus')],
      }),
      masterChosen(documentId, master.data.classifierId),
      {
        stream: `document-schemes-${documentId}`,
        type: 'SchemeCreated',
        data: {
          documentId,
          organizationId,
          schemeId,
          name: 'Kulud',
          fieldName: 'kulud',
          description: '',
          displayOrder: 0,
          classifierList: [{ classifierId: master.data.classifierId, type: 'MAIN' }],
        },
      },
    );
    const rows = await listClassifiers(spec.read, { documentId }, { includeItemCounts: true });
    expect(rows.map((row) => [row.field_name, row.grouped_by_ids, row.is_master, row.in_use_in_scheme, row.items_count])).toEqual([
      ['allikas', [], false, false, 0],
      ['tegevusala', [grouping.data.classifierId], true, true, 2],
      ['liik', [], false, false, 0],
    ]);
    expect((await listClassifiers(spec.read, { documentId })).map((row) => row.items_count)).toEqual([null, null, null]);
    expect((await listClassifiers(spec.read, { ids: [source.data.classifierId] })).map((row) => row.field_name)).toEqual(['allikas']);
    expect(await listClassifiers(spec.read, { ids: [] })).toEqual([]);
    expect(await classifierUsedInScheme(spec.read, master.data.classifierId)).toBe(true);
    expect(await classifierUsedInScheme(spec.read, source.data.classifierId)).toBe(false);
  });

  it('given an update, a reorder and a delete, lists the survivors in their new order', async () => {
    const documentId = newId();
    const [a, b, c] = [
      classifierCreated({ documentId, name: 'Allikas', fieldName: 'allikas', displayOrder: 0 }),
      classifierCreated({ documentId, name: 'Tegevusala', fieldName: 'tegevusala', displayOrder: 1 }),
      classifierCreated({ documentId, name: 'Eelarveüksus', fieldName: 'yksus', displayOrder: 2 }),
    ];
    const renamed = { ...definition({ documentId, name: 'Rahastusallikas', fieldName: 'rahastus', displayOrder: 0 }) };
    await spec.given(
      a,
      b,
      c,
      classifierEvent(a.data.classifierId, documentId, 'ClassifierUpdated', renamed),
      {
        stream: `classifierorder-${documentId}`,
        type: 'ClassifiersReordered',
        data: {
          documentId,
          list: [
            { id: a.data.classifierId, displayOrder: 5 },
            { id: b.data.classifierId, displayOrder: 4 },
          ],
        },
      },
      classifierEvent(c.data.classifierId, documentId, 'ClassifierDeleted', {}),
    );
    const rows = await listClassifiers(spec.read, { documentId });
    expect(rows.map((row) => [row.name, row.field_name, row.display_order])).toEqual([
      ['Tegevusala', 'tegevusala', 4],
      ['Rahastusallikas', 'rahastus', 5],
    ]);
    expect(await classifiersWithFieldName(spec.read, documentId, 'RAHASTUS', b.data.classifierId)).toEqual([a.data.classifierId]);
    expect(await classifiersWithFieldName(spec.read, documentId, 'rahastus', a.data.classifierId)).toEqual([]);
    expect(await classifiersWithFieldName(spec.read, documentId, 'yksus', a.data.classifierId)).toEqual([]);
  });

  it('given items added, updated and deleted, lists them in the order added with their grouping references', async () => {
    const documentId = newId();
    const master = classifierCreated({ documentId, name: 'Tegevusala', fieldName: 'tegevusala' });
    const grouping = classifierCreated({ documentId, name: 'Liik', fieldName: 'liik', groupingId: master.data.classifierId, required: true });
    const income = item('TULU', 'Tulud', { sign: 1 });
    const closed = item('KULU', 'Kulud', { unselectable: true, sign: -1 });
    // The master classifier's items name their value of the grouping classifier.
    const education = item('09', 'Haridus', { groupedBy: [{ classifierId: grouping.data.classifierId, itemId: income.id }] });
    const [culture, sport] = [item('08', 'Vabaaeg ja kultuur'), item('081', 'Sport')];
    await spec.given(
      master,
      grouping,
      classifierEvent(grouping.data.classifierId, documentId, 'ClassifierItemsAdded', { items: [income, closed] }),
      classifierEvent(master.data.classifierId, documentId, 'ClassifierItemsAdded', { items: [education, culture, sport] }),
      classifierEvent(master.data.classifierId, documentId, 'ClassifierItemsUpdated', { items: [{ ...culture, name: 'Kultuur', description: 'muuseumid' }] }),
      classifierEvent(master.data.classifierId, documentId, 'ClassifierItemsDeleted', { itemIds: [sport.id] }),
    );
    const masterRow = (await findClassifier(spec.read, master.data.classifierId))!;
    const groupingRow = (await findClassifier(spec.read, grouping.data.classifierId))!;
    const masterItems = await listItems(spec.read, [masterRow]);
    expect(masterItems.map((row) => [row.code, row.name, row.description, row.sign, row.unselectable, row.references, row.usage])).toEqual([
      ['09', 'Haridus', '', null, false, [{ classifierId: grouping.data.classifierId, itemId: income.id, code: 'TULU', sign: 1 }], null],
      ['08', 'Kultuur', 'muuseumid', null, false, [], null],
    ]);
    expect((await listItems(spec.read, [groupingRow])).map((row) => [row.code, row.sign, row.unselectable])).toEqual([
      ['TULU', 1, false],
      ['KULU', -1, true],
    ]);
    expect(await groupingContexts(spec.read, master.data.classifierId)).toEqual([
      {
        classifierId: grouping.data.classifierId,
        fieldName: 'liik',
        required: true,
        items: expect.arrayContaining([
          { id: income.id, code: 'TULU', unselectable: false },
          { id: closed.id, code: 'KULU', unselectable: true },
        ]),
      },
    ]);
    expect(await groupingContexts(spec.read, grouping.data.classifierId)).toEqual([]);
  });

  it('marks items used by sub-budgets and by grouping items as in use', async () => {
    const documentId = newId();
    const master = classifierCreated({ documentId, name: 'Tegevusala', fieldName: 'tegevusala' });
    const grouped = classifierCreated({ documentId, name: 'Allikas', fieldName: 'allikas', groupingId: master.data.classifierId });
    const [education, culture] = [item('09', 'Haridus'), item('08', 'Kultuur')];
    const [state, city] = [item('RIIK', 'Riigieelarve'), item('LINN', 'Linnaeelarve')];
    const stateSource = item('S1', 'Riik kokku', { groupedBy: [{ classifierId: grouped.data.classifierId, itemId: state.id }] });
    const schemeId = newId();
    await spec.given(
      master,
      grouped,
      classifierEvent(master.data.classifierId, documentId, 'ClassifierItemsAdded', { items: [education, culture, stateSource] }),
      classifierEvent(grouped.data.classifierId, documentId, 'ClassifierItemsAdded', { items: [state, city] }),
      {
        stream: `document-schemes-${documentId}`,
        type: 'SubBudgetsAdded',
        data: {
          documentId,
          organizationId,
          schemeId,
          subBudgets: [{ subBudgetId: newId(), name: 'Haridus', classifiers: { [master.data.classifierId]: '09' }, preselections: {} }],
        },
      },
    );
    const masterRow = (await findClassifier(spec.read, master.data.classifierId))!;
    const groupedRow = (await findClassifier(spec.read, grouped.data.classifierId))!;
    const masterUsage = await findItemsInUse(spec.read, masterRow);
    expect([...masterUsage.subBudgets]).toEqual([education.id]);
    expect((await findItemsInUse(spec.read, masterRow, [culture.id])).subBudgets.size).toBe(0);
    // The grouped classifier's item RIIK is referenced by a master item (grouped_by).
    const groupedUsage = await findItemsInUse(spec.read, { id: groupedRow.id, grouping_id: masterRow.id });
    expect(usedIds(groupedUsage)).toEqual([state.id]);
    expect((await listItems(spec.read, [groupedRow], { includeUsage: true })).map((row) => [row.code, row.usage?.groupings])).toEqual([
      ['RIIK', true],
      ['LINN', false],
    ]);
  });

  it('marks items used by records, and counts the records without a value for a classifier', async () => {
    const documentId = newId();
    const master = classifierCreated({ documentId, name: 'Tegevusala', fieldName: 'tegevusala' });
    const optional = classifierCreated({ documentId, name: 'Allikas', fieldName: 'allikas' });
    const [education, culture] = [item('09', 'Haridus'), item('08', 'Kultuur')];
    const importId = newId();
    const row = (name: string, classifiers: Record<string, string>) => ({ recordId: newId(), name, amount: '10', months: null, classifiers });
    await spec.given(master, optional, classifierEvent(master.data.classifierId, documentId, 'ClassifierItemsAdded', { items: [education, culture] }), {
      stream: `record-import-${importId}`,
      type: 'RecordsImported',
      data: {
        importId,
        budgetId: newId(),
        documentId,
        organizationId,
        chunk: 0,
        originResourceName: 'kirjed.xlsx',
        records: [row('Palgad', { [master.data.classifierId]: '09', [optional.data.classifierId]: 'RE' }), row('Küte', { [master.data.classifierId]: '09' })],
      },
    });
    const masterRow = (await findClassifier(spec.read, master.data.classifierId))!;
    expect([...(await findItemsInUse(spec.read, masterRow)).records]).toEqual([education.id]);
    expect((await listItems(spec.read, [masterRow], { includeUsage: true })).map((entry) => [entry.code, entry.usage?.records])).toEqual([
      ['09', true],
      ['08', false],
    ]);
    expect(await recordsWithoutClassifierValue(spec.read, optional.data.classifierId)).toBe(1);
    expect(await recordsWithoutClassifierValue(spec.read, master.data.classifierId)).toBe(0);
  });

  it('gives the classifier rules their facts: master, grouping of the master, grouped items without a value', async () => {
    const documentId = newId();
    const master = classifierCreated({ documentId, name: 'Tegevusala', fieldName: 'tegevusala' });
    const grouping = classifierCreated({ documentId, name: 'Liik', fieldName: 'liik', groupingId: master.data.classifierId });
    const [education, culture] = [item('09', 'Haridus'), item('08', 'Kultuur')];
    const income = item('TULU', 'Tulud');
    await spec.given(
      documentCreated(documentId),
      master,
      grouping,
      classifierEvent(grouping.data.classifierId, documentId, 'ClassifierItemsAdded', { items: [income] }),
      classifierEvent(master.data.classifierId, documentId, 'ClassifierItemsAdded', {
        items: [{ ...education, groupedBy: [{ classifierId: grouping.data.classifierId, itemId: income.id }] }, culture],
      }),
      masterChosen(documentId, master.data.classifierId),
    );
    expect(await classifierContext(spec.read, { classifierId: master.data.classifierId, documentId, groupingId: null })).toEqual({
      isMaster: true,
      groupsMaster: false,
      groupedByIds: [grouping.data.classifierId],
      secondaryInScheme: false,
      groupedItemsWithoutValue: 0,
      recordsWithoutValue: 0,
    });
    // Making the grouping classifier required: one of the master's two items has no value for it.
    expect(await classifierContext(spec.read, { classifierId: grouping.data.classifierId, documentId, groupingId: master.data.classifierId })).toMatchObject({
      isMaster: false,
      groupsMaster: true,
      groupedByIds: [],
      groupedItemsWithoutValue: 1,
    });
    // A new grouping classifier of the master: none of its items has a value yet.
    expect(await classifierContext(spec.read, { classifierId: null, documentId, groupingId: master.data.classifierId })).toMatchObject({
      groupsMaster: true,
      groupedItemsWithoutValue: 2,
    });
    expect(await classifierContext(spec.read, { classifierId: null, documentId: newId(), groupingId: null })).toBeNull();
  });

  it('given a deleted grouping classifier, its groupings stop naming it as their primary', async () => {
    const documentId = newId();
    const grouping = classifierCreated({ documentId, name: 'Liik', fieldName: 'liik' });
    const master = classifierCreated({ documentId, name: 'Tegevusala', fieldName: 'tegevusala' });
    const primaryGrouped = { ...definition({ documentId, name: 'Tegevusala', fieldName: 'tegevusala' }), primaryGroupedById: grouping.data.classifierId };
    await spec.given(
      grouping,
      master,
      classifierEvent(master.data.classifierId, documentId, 'ClassifierUpdated', primaryGrouped),
      classifierEvent(grouping.data.classifierId, documentId, 'ClassifierItemsAdded', { items: [item('TULU', 'Tulud')] }),
    );
    expect((await findClassifier(spec.read, master.data.classifierId))?.primary_grouped_by_id).toBe(grouping.data.classifierId);
    await spec.given(classifierEvent(grouping.data.classifierId, documentId, 'ClassifierDeleted', {}));
    expect((await findClassifier(spec.read, master.data.classifierId))?.primary_grouped_by_id).toBeNull();
    expect(await findClassifier(spec.read, grouping.data.classifierId)).toBeUndefined();
    expect(await listItems(spec.read, [{ id: grouping.data.classifierId, grouping_id: null }])).toEqual([]);
  });
});
