import { DomainError, deriveFieldName } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { givenFor } from '../testing';
import { foldEvents } from '../decider';
import { type ClassifierCatalogue, type SchemeCommand, schemeDecider } from './decider';
import type { SchemeEvent } from './events';

const documentId = 'd0000000-0000-4000-8000-000000000001';
const organizationId = 'o0000000-0000-4000-8000-000000000001';
const schemeId = 's0000000-0000-4000-8000-000000000001';
const otherSchemeId = 's0000000-0000-4000-8000-000000000002';
const main = 'c0000000-0000-4000-8000-000000000001';
const secondary = 'c0000000-0000-4000-8000-000000000002';
const subBudgetId = 'b0000000-0000-4000-8000-000000000001';

const given = givenFor<SchemeCommand, SchemeEvent, ReturnType<typeof schemeDecider.initialState>>(schemeDecider);

function thrown(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError');
}
const expectCode = (run: () => unknown, code: string) => expect(thrown(run).code).toBe(code);

const catalogue: ClassifierCatalogue = {
  masterClassifierId: main,
  classifiers: {
    [main]: { fieldName: 'tegevusala', items: { '01': { selectable: true }, '02': { selectable: true }, '0': { selectable: false } } },
    [secondary]: { fieldName: 'allikas', items: { A: { selectable: true }, B: { selectable: true } } },
  },
};
const classifierList = [
  { classifierId: main, type: 'MAIN' as const },
  { classifierId: secondary, type: 'SECONDARY' as const },
];
const schemeCreated: SchemeEvent = {
  type: 'SchemeCreated',
  data: { documentId, organizationId, schemeId, name: 'Kulud', fieldName: 'kulud', description: '', displayOrder: 1, classifierList },
};
const otherScheme: SchemeEvent = {
  type: 'SchemeCreated',
  data: { ...schemeCreated.data, schemeId: otherSchemeId, name: 'Tulud', fieldName: 'tulud', displayOrder: 2 },
};
const subBudgetAdded: SchemeEvent = {
  type: 'SubBudgetsAdded',
  data: { documentId, organizationId, schemeId, subBudgets: [{ subBudgetId, name: 'Haridus', classifiers: { [main]: '01' }, preselections: {} }] },
};
const createScheme: SchemeCommand = {
  type: 'CreateScheme',
  documentId,
  organizationId,
  schemeId,
  name: 'Kulud',
  fieldName: 'kulud',
  description: '',
  classifierList,
  documentClassifierIds: [main, secondary],
};
const createSubBudget = (classifiers: Record<string, string>, id = 'b0000000-0000-4000-8000-000000000009'): SchemeCommand => ({
  type: 'CreateSubBudget',
  documentId,
  schemeId,
  subBudgetId: id,
  name: ' Uus ',
  classifiers,
  catalogue,
});

describe('field name derivation', () => {
  it('turns spaces into underscores, drops other characters and lower-cases', () => {
    expect(deriveFieldName('Kulud ja Tulud 2026!')).toBe('kulud_ja_tulud_2026');
    expect(deriveFieldName('Põhi-eelarve')).toBe('phieelarve');
  });
});

describe('schemes', () => {
  it('creates a scheme placed after the others', () => {
    expect(given([otherScheme]).when(createScheme)()).toEqual([{ ...schemeCreated, data: { ...schemeCreated.data, displayOrder: 3 } }]);
  });

  it('refuses a duplicate name (any case) and a duplicate field name', () => {
    const error = thrown(given([otherScheme]).when({ ...createScheme, name: ' tulud ' }));
    expect(error.code).toBe('SCHEME_NAME_NOT_UNIQUE');
    expect(error.message).toBe('nameNotUnique');
    expect(error.details).toEqual([{ field: 'name', message: 'nameNotUnique' }]);
    expectCode(given([otherScheme]).when({ ...createScheme, fieldName: 'TULUD' }), 'SCHEME_FIELD_NAME_NOT_UNIQUE');
    expect(thrown(given([otherScheme]).when({ ...createScheme, fieldName: 'TULUD' })).details).toEqual([{ field: 'fieldName', message: 'fieldNameNotUnique' }]);
  });

  it('allows a scheme to keep its own name', () => {
    expect(given([schemeCreated]).when({ ...createScheme, type: 'UpdateScheme', description: 'x' })()).toHaveLength(1);
  });

  it('refuses classifiers of another document', () => {
    expectCode(given([]).when({ ...createScheme, documentClassifierIds: [main] }), 'CLASSIFIER_MISSING');
    const error = thrown(given([]).when({ ...createScheme, documentClassifierIds: [main] }));
    // The secondary classifier (second in the list) is not one of the document.
    expect(error.details).toEqual([{ field: 'classifierList.1.classifierId', message: 'classifierMissing' }]);
  });

  it('records nothing when an update changes nothing', () => {
    expect(given([schemeCreated]).when({ ...createScheme, type: 'UpdateScheme' })()).toEqual([]);
  });

  it('does not delete the last scheme', () => {
    expectCode(given([schemeCreated]).when({ type: 'DeleteScheme', documentId, schemeId }), 'LAST_SCHEME');
    expect(given([schemeCreated, otherScheme]).when({ type: 'DeleteScheme', documentId, schemeId })()).toHaveLength(1);
  });

  it('does not delete a scheme with sub-budgets or change its classifiers', () => {
    expectCode(given([schemeCreated, otherScheme, subBudgetAdded]).when({ type: 'DeleteScheme', documentId, schemeId }), 'SCHEME_HAS_SUB_BUDGETS');
    expectCode(
      given([schemeCreated, subBudgetAdded]).when({ ...createScheme, type: 'UpdateScheme', classifierList: [classifierList[0]!] }),
      'SCHEME_HAS_SUB_BUDGETS',
    );
    // Its name may still change.
    expect(given([schemeCreated, subBudgetAdded]).when({ ...createScheme, type: 'UpdateScheme', name: 'Kulud 2' })()).toHaveLength(1);
  });

  it('reorders, refusing unknown schemes', () => {
    const events = given([schemeCreated, otherScheme]).when({
      type: 'ReorderSchemes',
      documentId,
      list: [
        { id: otherSchemeId, displayOrder: 1 },
        { id: schemeId, displayOrder: 2 },
      ],
    })();
    expect(events[0]?.type).toBe('SchemesReordered');
    expectCode(given([schemeCreated]).when({ type: 'ReorderSchemes', documentId, list: [{ id: otherSchemeId, displayOrder: 1 }] }), 'SCHEME_NOT_FOUND');
  });
});

describe('sub-budgets', () => {
  it('creates a sub-budget with a trimmed name', () => {
    const [event] = given([schemeCreated]).when(createSubBudget({ [main]: '01', [secondary]: 'A' }))();
    expect(event).toMatchObject({ type: 'SubBudgetsAdded', data: { subBudgets: [{ name: 'Uus', classifiers: { [main]: '01', [secondary]: 'A' } }] } });
  });

  it('accepts classifier field names as keys', () => {
    const [event] = given([schemeCreated]).when(createSubBudget({ tegevusala: '02' }))();
    expect(event).toMatchObject({ data: { subBudgets: [{ classifiers: { [main]: '02' } }] } });
  });

  it('requires the main classifier values', () => {
    expectCode(given([schemeCreated]).when(createSubBudget({ [secondary]: 'A' })), 'MAIN_CLASSIFIER_NOT_SELECTED');
  });

  it('refuses unknown and unselectable items and classifiers outside the scheme', () => {
    expect(thrown(given([schemeCreated]).when(createSubBudget({ [main]: '99' }))).details).toEqual([
      { field: `classifiers.${main}`, message: 'referenceItemNotFound' },
    ]);
    expect(thrown(given([schemeCreated]).when(createSubBudget({ [main]: '0' }))).message).toBe('referenceItemUnselectable');
    expectCode(
      given([schemeCreated]).when(createSubBudget({ [main]: '01', 'c0000000-0000-4000-8000-000000000099': 'X' })),
      'SUB_BUDGET_CLASSIFIER_VALUE_INVALID',
    );
  });

  it('keeps classifier value combinations unique within the scheme', () => {
    const error = thrown(given([schemeCreated, subBudgetAdded]).when(createSubBudget({ [main]: '01' })));
    expect(error.code).toBe('SUB_BUDGET_NOT_UNIQUE');
    expect(error.message).toBe('classifierValuesMustBeUnique');
    // A different secondary value is a different combination.
    expect(given([schemeCreated, subBudgetAdded]).when(createSubBudget({ [main]: '01', [secondary]: 'A' }))()).toHaveLength(1);
  });

  it('needs a master classifier, scheme classifiers, and classifiers that still exist', () => {
    expectCode(
      given([schemeCreated]).when({ ...createSubBudget({ [main]: '01' }), catalogue: { ...catalogue, masterClassifierId: null } } as SchemeCommand),
      'DOCUMENT_MISSING_MASTER_CLASSIFIER',
    );
    const empty: SchemeEvent = { ...schemeCreated, data: { ...schemeCreated.data, classifierList: [] } };
    expectCode(given([empty]).when(createSubBudget({})), 'SCHEME_HAS_NO_CLASSIFIERS');
    const noSecondary = { ...catalogue, classifiers: { [main]: catalogue.classifiers[main]! } };
    expectCode(given([schemeCreated]).when({ ...createSubBudget({ [main]: '01' }), catalogue: noSecondary } as SchemeCommand), 'CLASSIFIER_MISSING');
    expectCode(given([]).when(createSubBudget({ [main]: '01' })), 'SCHEME_NOT_FOUND');
  });

  it("updates name and values, refusing another sub-budget's combination", () => {
    const second: SchemeEvent = {
      type: 'SubBudgetsAdded',
      data: { documentId, organizationId, schemeId, subBudgets: [{ subBudgetId: 'b2', name: 'Kultuur', classifiers: { [main]: '02' }, preselections: {} }] },
    };
    const update = (classifiers: Record<string, string>, hasRecords = false): SchemeCommand => ({
      type: 'UpdateSubBudget',
      documentId,
      schemeId,
      subBudgetId,
      name: 'Haridus 2',
      classifiers,
      catalogue,
      hasRecords,
    });
    expectCode(given([schemeCreated, subBudgetAdded, second]).when(update({ [main]: '02' })), 'SUB_BUDGET_NOT_UNIQUE');
    expect(given([schemeCreated, subBudgetAdded, second]).when(update({ [main]: '01' }))()).toHaveLength(1);
    expectCode(given([schemeCreated, subBudgetAdded]).when(update({ [main]: '02' }, true)), 'SUB_BUDGET_HAS_RECORDS');
    expectCode(given([schemeCreated]).when(update({ [main]: '01' })), 'SUB_BUDGET_NOT_FOUND');
  });

  it('deletes sub-budgets, frees their combination and unpins them', () => {
    const deleted = given([schemeCreated, subBudgetAdded]).when({
      type: 'DeleteSubBudgets',
      documentId,
      schemeId,
      subBudgetIds: [subBudgetId],
      withRecords: [],
    })();
    const pinned: SchemeEvent = { type: 'SubBudgetsPinned', data: { documentId, organizationId, schemeId, budgetId: 'budget', pinned: [subBudgetId] } };
    const state = foldEvents(schemeDecider, [schemeCreated, subBudgetAdded, pinned, ...deleted]);
    expect(state.pins.get(`budget:${schemeId}`)).toEqual([]);
    expect(schemeDecider.decide(createSubBudget({ [main]: '01' }), state)).toHaveLength(1);
    expectCode(
      given([schemeCreated, subBudgetAdded]).when({ type: 'DeleteSubBudgets', documentId, schemeId, subBudgetIds: [subBudgetId], withRecords: [subBudgetId] }),
      'SUB_BUDGET_HAS_RECORDS',
    );
    expectCode(
      given([schemeCreated]).when({ type: 'DeleteSubBudgets', documentId, schemeId, subBudgetIds: [subBudgetId], withRecords: [] }),
      'SUB_BUDGET_NOT_FOUND',
    );
  });

  it('sets preselections of existing items only', () => {
    const set = (preselections: Record<string, string[]>): SchemeCommand => ({
      type: 'SetClassifierPreselections',
      documentId,
      schemeId,
      subBudgetId,
      preselections,
      catalogue,
    });
    expect(given([schemeCreated, subBudgetAdded]).when(set({ [secondary]: ['A', 'A', 'B'] }))()[0]).toMatchObject({
      data: { list: [{ subBudgetId, preselections: { [secondary]: ['A', 'B'] } }] },
    });
    expect(thrown(given([schemeCreated, subBudgetAdded]).when(set({ [secondary]: ['A', 'Z'] }))).details).toEqual([
      { field: `preselections.${secondary}.1`, message: 'referenceItemNotFound' },
    ]);
  });

  it('pins sub-budgets of the scheme; unpinning one with records needs confirmation', () => {
    const pin = (pinned: string[], withRecords: string[] = [], confirmed = false): SchemeCommand => ({
      type: 'PinSubBudgets',
      documentId,
      schemeId,
      budgetId: 'budget',
      pinned,
      withRecords,
      confirmed,
    });
    const [pinned] = given([schemeCreated, subBudgetAdded]).when(pin([subBudgetId]))();
    expect(pinned).toMatchObject({ type: 'SubBudgetsPinned', data: { budgetId: 'budget', pinned: [subBudgetId] } });
    expectCode(given([schemeCreated, subBudgetAdded]).when(pin(['nope'])), 'SUB_BUDGET_NOT_FOUND');
    expectCode(given([schemeCreated, subBudgetAdded, pinned!]).when(pin([], [subBudgetId])), 'SUB_BUDGET_HAS_RECORDS');
    expect(given([schemeCreated, subBudgetAdded, pinned!]).when(pin([], [subBudgetId], true))()).toHaveLength(1);
    expect(given([schemeCreated, subBudgetAdded, pinned!]).when(pin([subBudgetId]))()).toEqual([]);
  });
});

describe('sub-budget import', () => {
  const importRows = (
    importType: 'SUB_BUDGETS_WITH_PRESELECTIONS' | 'PRESELECTIONS_ONLY',
    rows: { id?: string; name?: string; classifiers?: Record<string, string | null>; preselections?: Record<string, string[]> }[],
  ): SchemeCommand => ({
    type: 'ImportSubBudgets',
    documentId,
    schemeId,
    importType,
    rows: rows.map((row) => ({ name: '', classifiers: {}, preselections: {}, ...row })),
    newIds: rows.map((_, index) => `new-${index}`),
    catalogue,
  });

  it('imports every row in one event, cutting long names', () => {
    const [event] = given([schemeCreated]).when(
      importRows('SUB_BUDGETS_WITH_PRESELECTIONS', [
        { name: 'x'.repeat(300), classifiers: { [main]: '01' }, preselections: { [secondary]: ['A'] } },
        { name: 'Teine', classifiers: { tegevusala: '02', allikas: '' } },
      ]),
    )();
    expect(event).toMatchObject({
      type: 'SubBudgetsAdded',
      data: {
        subBudgets: [
          { subBudgetId: 'new-0', name: 'x'.repeat(256), preselections: { [secondary]: ['A'] } },
          { subBudgetId: 'new-1', classifiers: { [main]: '02' } },
        ],
      },
    });
  });

  it('reports the errors of every row and imports nothing', () => {
    const error = thrown(
      given([schemeCreated, subBudgetAdded]).when(
        importRows('SUB_BUDGETS_WITH_PRESELECTIONS', [
          { name: 'Olemas', classifiers: { [main]: '01' } },
          { name: 'Uus', classifiers: { [main]: '02' } },
          { name: 'Kordus', classifiers: { [main]: '02' } },
          { name: '', classifiers: { [secondary]: 'Z' }, preselections: { [secondary]: ['Q'] } },
        ]),
      ),
    );
    expect(error.code).toBe('SUB_BUDGET_IMPORT_INVALID');
    expect(error.details).toEqual([
      { row: 0, errors: [{ path: 'classifiers', message: 'subBudgetExists' }] },
      { row: 2, errors: [{ path: 'classifiers', message: 'classifierValuesMustBeUnique' }] },
      {
        row: 3,
        errors: [
          { path: `preselections.${secondary}.0`, message: 'referenceItemNotFound' },
          { path: 'name', message: 'validation.required' },
          { path: `classifiers.${main}`, message: 'mainClassifierNotSelected' },
          { path: `classifiers.${secondary}`, message: 'referenceItemNotFound' },
        ],
      },
    ]);
  });

  it('sets preselections of existing sub-budgets only, found by id or by values', () => {
    const [event] = given([schemeCreated, subBudgetAdded]).when(
      importRows('PRESELECTIONS_ONLY', [{ classifiers: { [main]: '01' }, preselections: { [secondary]: ['B'] } }]),
    )();
    expect(event).toMatchObject({ type: 'ClassifierPreselectionsSet', data: { list: [{ subBudgetId, preselections: { [secondary]: ['B'] } }] } });
    expect(given([schemeCreated, subBudgetAdded]).when(importRows('PRESELECTIONS_ONLY', [{ id: subBudgetId, preselections: {} }]))()).toHaveLength(1);
    const error = thrown(given([schemeCreated, subBudgetAdded]).when(importRows('PRESELECTIONS_ONLY', [{ classifiers: { [main]: '02' } }])));
    expect(error.details).toEqual([{ row: 0, errors: [{ path: 'classifiers', message: 'subBudgetNotFound' }] }]);
  });
});
