import { describe, expect, it } from 'vitest';
import { expectDomainError, givenFor } from '../testing';
import { foldEvents } from '../decider';
import { type ClassifierCommand, type ClassifierContext, type ClassifierFields, classifierDecider, classifierOrderDecider } from './decider';
import type { ClassifierEvent, ClassifierItemData } from './events';
import { type GroupingContext, validateImportRows } from './items';

const classifierId = '3f9c1a52-0d1e-4b57-8f53-1c2d3e4f5a6b';
const documentId = '7d1b8e8e-3a43-4d55-9d36-5b7f1d2b0c01';
const organizationId = '6c1b8e8e-3a43-4d55-9d36-5b7f1d2b0c01';
const groupingId = '11111111-3a43-4d55-9d36-5b7f1d2b0c01';

const given = givenFor<ClassifierCommand, ClassifierEvent, ReturnType<typeof classifierDecider.initialState>>(classifierDecider);

const expectCode = expectDomainError;

const context: ClassifierContext = {
  isMaster: false,
  groupsMaster: false,
  groupedByIds: [],
  secondaryInScheme: false,
  groupedItemsWithoutValue: 0,
  recordsWithoutValue: 0,
};
const fields: ClassifierFields = {
  name: 'Tegevusala',
  itemName: 'Tegevusala',
  fieldName: 'tegevusala',
  description: '',
  required: false,
  itemCanChangeSign: false,
  primary: false,
  primaryGroupedById: null,
  displayMode: 'CODE_AND_NAME',
  codeSettings: { typeName: 'Code', minLength: 1, maxLength: 10, hierarchical: false },
};
const create: ClassifierCommand = { type: 'CreateClassifier', classifierId, documentId, organizationId, groupingId: null, context, ...fields };
const update = (changes: Partial<ClassifierFields>, ctx: Partial<ClassifierContext> = {}): ClassifierCommand => ({
  type: 'UpdateClassifier',
  classifierId,
  context: { ...context, ...ctx },
  ...fields,
  ...changes,
});
const created = classifierDecider.decide(create, { status: 'none' });
const itemData = (id: string, code: string, changes: Partial<ClassifierItemData> = {}): ClassifierItemData => ({
  id,
  code,
  name: `Item ${code}`,
  description: '',
  sign: null,
  unselectable: false,
  groupedBy: [],
  ...changes,
});
const added = (...items: ClassifierItemData[]): ClassifierEvent => ({
  type: 'ClassifierItemsAdded',
  data: { classifierId, documentId, organizationId, items },
});
const withItems = [...created, added(itemData('a', 'AB'), itemData('b', 'ABCDE'))];

describe('classifier decider', () => {
  it('creates a classifier with complete code settings', () => {
    expect(created).toEqual([
      {
        type: 'ClassifierCreated',
        data: {
          classifierId,
          documentId,
          organizationId,
          groupingId: null,
          ...fields,
          displayOrder: 0,
          codeSettings: { typeName: 'Code', minLength: 1, maxLength: 10, hierarchical: false, typeRegex: '^[A-Za-z0-9._\\-/]+$', regexFlag: '', ranking: 2 },
        },
      },
    ]);
  });

  it('checks length bounds against each other, the default and existing codes', () => {
    expectCode(
      given([]).when({ ...create, codeSettings: { ...fields.codeSettings, minLength: 5, maxLength: 4 } } as ClassifierCommand),
      'CLASSIFIER_MIN_GREATER_THAN_MAX',
    );
    expectCode(
      given([]).when({ ...create, codeSettings: { ...fields.codeSettings, minLength: 21, maxLength: 30 } } as ClassifierCommand),
      'SCHEMA_VALIDATION_ERROR',
    );
    expectCode(given(withItems).when(update({ codeSettings: { ...fields.codeSettings, minLength: 3 } })), 'LENGTH_CONFLICTS_WITH_CODES');
    expectCode(given(withItems).when(update({ codeSettings: { ...fields.codeSettings, maxLength: 4 } })), 'LENGTH_CONFLICTS_WITH_CODES');
    expect(given(withItems).when(update({ codeSettings: { ...fields.codeSettings, minLength: 2, maxLength: 5 } }))()).toHaveLength(1);
  });

  it('lowers the code type only while all codes fit', () => {
    expectCode(given(withItems).when(update({ codeSettings: { ...fields.codeSettings, typeName: 'Number' } })), 'CODE_TYPE_BLOCKED_BY_ITEMS');
    expect(given(created).when(update({ codeSettings: { ...fields.codeSettings, typeName: 'Number' } }))()).toHaveLength(1);
  });

  it('keeps the sign, required and primary grouping rules', () => {
    expectCode(given([]).when({ ...create, itemCanChangeSign: true } as ClassifierCommand), 'ONLY_GROUPING_CAN_CHANGE_SIGN');
    expectCode(given([]).when({ ...create, groupingId, itemCanChangeSign: true } as ClassifierCommand), 'ONLY_GROUPING_CAN_CHANGE_SIGN');
    expect(given([]).when({ ...create, groupingId, itemCanChangeSign: true, context: { ...context, groupsMaster: true } } as ClassifierCommand)()).toHaveLength(
      1,
    );
    expectCode(given(created).when(update({ required: false }, { isMaster: true })), 'MASTER_CLASSIFIER_MUST_BE_REQUIRED');
    expectCode(given(created).when(update({ required: true }, { secondaryInScheme: true })), 'CANNOT_BE_REQUIRED');
    expectCode(given(created).when(update({ required: true }, { recordsWithoutValue: 3 })), 'NOT_USED_IN_ALL_RECORDS');
    expectCode(given(created).when(update({}, { groupedByIds: [groupingId] })), 'INVALID_PRIMARY_GROUPING');
    expect(given(created).when(update({ primaryGroupedById: groupingId }, { groupedByIds: [groupingId] }))()).toHaveLength(1);
  });

  it('refuses to turn sign changing off while items are negative', () => {
    const signed = classifierDecider.decide(
      { ...create, groupingId, itemCanChangeSign: true, context: { ...context, groupsMaster: true } } as ClassifierCommand,
      { status: 'none' },
    );
    const events = [...signed, added(itemData('a', 'A', { sign: -1 }))];
    expectCode(given(events).when(update({ itemCanChangeSign: false }, { groupsMaster: true })), 'HAS_SIGN_CHANGING_ITEMS');
  });

  it('records nothing when an update changes nothing', () => {
    expect(given(created).when(update({}))()).toEqual([]);
  });

  it('deletes only a classifier without items, scheme use, master role or grouping classifiers', () => {
    const remove = { type: 'DeleteClassifier' as const, classifierId, usedInScheme: false, isMaster: false, groupedByIds: [] as string[] };
    expectCode(given(withItems).when(remove), 'CLASSIFIER_HAS_ITEMS');
    expectCode(given(created).when({ ...remove, usedInScheme: true }), 'CLASSIFIER_IN_USE');
    expectCode(given(created).when({ ...remove, isMaster: true }), 'CLASSIFIER_IN_USE');
    expectCode(given(created).when({ ...remove, groupedByIds: [groupingId] }), 'CLASSIFIER_HAS_GROUPED_BY');
    const deleted = given(created).when(remove)();
    expectCode(given([...created, ...deleted]).when(remove), 'CLASSIFIER_NOT_FOUND');
  });
});

describe('classifier items', () => {
  const grouping: GroupingContext = {
    classifierId: groupingId,
    fieldName: 'grupp',
    required: true,
    items: [
      { id: 'g1', code: 'G1', unselectable: false },
      { id: 'g2', code: 'G2', unselectable: true },
    ],
  };

  it('checks code, uniqueness, sign and groupings of a new item', () => {
    const add = (item: ClassifierItemData, groupings: GroupingContext[] = []) =>
      given(withItems).when({ type: 'AddClassifierItem', classifierId, item, groupings });
    expectCode(add(itemData('c', 'a b')), 'INVALID_CODE');
    expectCode(add(itemData('c', 'ABCDEFGHIJK')), 'INVALID_CODE');
    expectCode(add(itemData('c', 'ab')), 'ITEM_CODE_IN_USE');
    expectCode(add(itemData('c', 'C', { sign: -1 })), 'ONLY_GROUPING_CAN_CHANGE_SIGN');
    expectCode(add(itemData('c', 'C'), [grouping]), 'INVALID_GROUPING');
    expectCode(add(itemData('c', 'C', { groupedBy: [{ classifierId: groupingId, itemId: 'g2' }] }), [grouping]), 'INVALID_GROUPING');
    expect(add(itemData('c', 'C', { groupedBy: [{ classifierId: groupingId, itemId: 'g1' }] }), [grouping])()).toHaveLength(1);
  });

  it('keeps the code of an item in use', () => {
    const edit = (code: string, inUse: boolean) =>
      given(withItems).when({ type: 'UpdateClassifierItem', classifierId, item: itemData('a', code), groupings: [], inUse });
    expectCode(edit('XY', true), 'ITEM_IN_USE');
    expect(edit('XY', false)()).toHaveLength(1);
    expectCode(edit('ABCDE', false), 'ITEM_CODE_IN_USE');
  });

  it('deletes items not in use', () => {
    const remove = (itemIds: string[], inUse: string[] = []) => given(withItems).when({ type: 'DeleteClassifierItems', classifierId, itemIds, inUse });
    expectCode(remove(['a'], ['a']), 'ITEM_IN_USE');
    expectCode(remove(['zz']), 'CLASSIFIER_ITEM_NOT_FOUND');
    const events = remove(['a', 'b'])();
    const state = foldEvents(classifierDecider, [...withItems, ...events]);
    expect(state.status === 'active' && state.items.size).toBe(0);
  });

  it('imports all rows as one event, or nothing when a row fails (loose: the valid ones)', () => {
    const rows = [
      { code: 'C', name: 'C', unselectable: false, grupp: 'g1' },
      { code: 'D', name: 'D', unselectable: 'no', grupp: 'G1' },
    ];
    const run = (input: Record<string, unknown>[], loose = false) =>
      given(withItems).when({
        type: 'ImportClassifierItems',
        classifierId,
        rows: input,
        loose,
        newIds: input.map((_, index) => `n${index}`),
        groupings: [grouping],
      });
    const events = run(rows)();
    expect(events).toHaveLength(1);
    expect(events[0]!.type === 'ClassifierItemsAdded' && events[0]!.data.items.map((item) => [item.id, item.code, item.groupedBy])).toEqual([
      ['n0', 'C', [{ classifierId: groupingId, itemId: 'g1' }]],
      ['n1', 'D', [{ classifierId: groupingId, itemId: 'g1' }]],
    ]);
    const failing = [...rows, { code: 'AB', name: 'X', unselectable: false, grupp: 'G1' }];
    expectCode(run(failing), 'CLASSIFIER_IMPORT_INVALID');
    const loose = run(failing, true)();
    expect(loose[0]!.type === 'ClassifierItemsAdded' && loose[0]!.data.items).toHaveLength(2);
    expectCode(run([failing[2]!], true), 'CLASSIFIER_IMPORT_INVALID');
  });

  it('reports every import message of the spec', () => {
    const settings = { typeName: 'Number', minLength: 1, maxLength: 4, hierarchical: false, typeRegex: '^[0-9]+$', regexFlag: '', ranking: 1 } as const;
    const results = validateImportRows(
      [
        { code: '', name: 'a', unselectable: false, grupp: 'G1' },
        { code: '1', name: 'a', unselectable: false, grupp: 'G9' },
        { code: '2', name: 'a', unselectable: false, grupp: 'G2' },
        { code: 'X', name: 'a', unselectable: false, grupp: 'G1' },
        { code: '3', name: 'a', unselectable: false, grupp: 'G1' },
        { code: '3', name: 'a', unselectable: false, grupp: 'G1' },
        { code: '7', name: 'a', unselectable: false, grupp: 'G1' },
        { code: '8', name: 'a', unselectable: false, grupp: '' },
      ],
      { codeSettings: settings, itemCanChangeSign: false, existingCodes: new Set(['7']), groupings: [grouping] },
    );
    expect(results.map((result) => result.errors.map((error) => error.message))).toEqual([
      ['validation.required'],
      ['referenceItemNotFound'],
      ['referenceItemUnselectable'],
      ['codeTypeError'],
      ['unique'],
      ['unique'],
      ['uniqueCode'],
      ['validation.required'],
    ]);
  });
});

describe('classifier order', () => {
  it('records the order, refusing an id twice', () => {
    expect(classifierOrderDecider.decide({ type: 'ReorderClassifiers', documentId, list: [{ id: 'a', displayOrder: 2 }] }, { revision: 0 })).toHaveLength(1);
    expectCode(
      () =>
        classifierOrderDecider.decide(
          {
            type: 'ReorderClassifiers',
            documentId,
            list: [
              { id: 'a', displayOrder: 2 },
              { id: 'a', displayOrder: 1 },
            ],
          },
          { revision: 0 },
        ),
      'SCHEMA_VALIDATION_ERROR',
    );
  });

  it('names the list as the refused field', () => {
    const twice = [
      { id: 'a', displayOrder: 2 },
      { id: 'a', displayOrder: 1 },
    ];
    expect(() => classifierOrderDecider.decide({ type: 'ReorderClassifiers', documentId, list: twice }, { revision: 0 })).toThrow(
      expect.objectContaining({ details: [{ field: 'list', message: 'validation.unique' }] }),
    );
  });
});
