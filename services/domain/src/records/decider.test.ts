import { DomainError } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { expectDomainError, givenFor } from '../testing';
import { type RecordCommand, type RecordState, recordDecider } from './decider';
import type { RecordCreated, RecordEvent, RecordRef, RecordsImported } from './events';
import { importedVersion, type RecordVersion, type RecordVersionEvent, recordHistory, recordOrigin } from './history';
import { checkRecordValues, type RecordFacts, recordAmount } from './record-rules';

const recordId = '11111111-1111-4111-8111-111111111111';
const budgetId = '22222222-2222-4222-8222-222222222222';
const documentId = '33333333-3333-4333-8333-333333333333';
const organizationId = '44444444-4444-4444-8444-444444444444';
const master = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const required = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const optional = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
const ref: RecordRef = { recordId, budgetId, documentId, organizationId };

const facts: RecordFacts = {
  periodMonths: 12,
  masterClassifierId: master,
  classifiers: {
    [master]: { fieldName: 'konto', required: true, items: { '100': { selectable: true }, '200': { selectable: true }, '1': { selectable: false } } },
    [required]: { fieldName: 'tegevus', required: true, items: { T1: { selectable: true }, T2: { selectable: true } } },
    [optional]: { fieldName: 'allikas', required: false, items: { A: { selectable: true }, B: { selectable: true } } },
  },
};
const inSubBudget: RecordFacts = { ...facts, subBudget: { id: 'sb', schemeClassifierIds: [master, optional], classifiers: { [master]: '100' } } };

const given = givenFor<RecordCommand, RecordEvent, RecordState>(recordDecider);

const create: Extract<RecordCommand, { type: 'CreateRecord' }> = {
  type: 'CreateRecord',
  recordId,
  budgetId,
  documentId,
  organizationId,
  values: { name: ' Salaries ', amount: '1200', classifiers: { konto: '100', [required]: 'T1' } },
  facts,
};
const created: RecordCreated = {
  type: 'RecordCreated',
  data: { ...ref, name: 'Salaries', amount: '1200', months: null, classifiers: { [master]: '100', [required]: 'T1' }, promoted: false, duplicatedFrom: null },
};
const values = created.data;
const months = (value: string) => Array.from({ length: 12 }, () => value);

const chunk: RecordsImported['data'] = {
  importId: '55555555-5555-4555-8555-555555555555',
  budgetId,
  documentId,
  organizationId,
  chunk: 0,
  originResourceName: 'plan.xlsx',
  records: [{ recordId, name: 'Imported', amount: '10', months: null, classifiers: { [master]: '200', [required]: 'T2' } }],
};
const imported = importedVersion(chunk, recordId);
if (!imported) throw new Error('fixture');
const origin = recordOrigin(imported);

/** The DomainError a decision throws. */
function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('record rules', () => {
  it('answers normalised values: trimmed name, classifier ids for field names, empty values dropped', () => {
    expect(checkRecordValues({ name: ' a ', amount: '1', classifiers: { KONTO: '100', tegevus: ' T1 ', allikas: '' } }, facts)).toEqual({
      name: 'a',
      amount: '1',
      months: null,
      classifiers: { [master]: '100', [required]: 'T1' },
    });
  });

  it('takes the exact sum of the months as the amount when only months are given (0.1 twelve times is 1.2)', () => {
    expect(recordAmount(undefined, months('0.1'))).toBe('1.2');
    expect(checkRecordValues({ ...create.values, amount: null, months: months('0.1') }, facts)).toMatchObject({ amount: '1.2', months: months('0.1') });
    expect(() => recordAmount(undefined, undefined)).toThrow(DomainError);
  });

  it('refuses months that do not add up to the amount, or do not cover the document period', () => {
    const mismatch = refusal(() => checkRecordValues({ ...create.values, amount: '1.21', months: months('0.1') }, facts));
    expect(mismatch.code).toBe('RECORD_FACTORS_MISMATCH');
    expect(mismatch.details).toEqual([{ field: 'amount', message: 'sumAndPeriodizedInfoMismatch' }]);
    expectDomainError(() => checkRecordValues({ ...create.values, months: months('1').slice(1) }, facts), 'RECORD_FACTORS_INVALID');
    expectDomainError(
      () => checkRecordValues({ ...create.values, amount: null, months: months('1') }, { ...facts, periodMonths: 24 }),
      'RECORD_FACTORS_INVALID',
    );
    const badMonth = refusal(() =>
      checkRecordValues({ ...create.values, amount: null, months: [...months('1').slice(0, 3), 'x', ...months('1').slice(4)] }, facts),
    );
    expect(badMonth.details).toEqual([{ field: 'factors.months.3', message: 'validation.amount' }]);
  });

  it('refuses a name over the text limit, an empty name and control characters', () => {
    expectDomainError(() => checkRecordValues({ ...create.values, name: 'x'.repeat(257) }, facts), 'RECORD_NAME_TOO_LONG');
    expect(checkRecordValues({ ...create.values, name: 'x'.repeat(256) }, facts).name).toHaveLength(256);
    expectDomainError(() => checkRecordValues({ ...create.values, name: '  ' }, facts), 'SCHEMA_VALIDATION_ERROR');
    expectDomainError(() => checkRecordValues({ ...create.values, name: 'a\u0000' }, facts), 'SCHEMA_VALIDATION_ERROR');
  });

  it('checks classifier keys, items, selectability, the master and the required classifiers', () => {
    const check = (classifiers: Record<string, string | null>) => () => checkRecordValues({ ...create.values, classifiers }, facts);
    expectDomainError(check({ konto: '100', tegevus: 'T1', unknown: 'x' }), 'RECORD_CLASSIFIER_INVALID');
    expectDomainError(check({ konto: '999', tegevus: 'T1' }), 'RECORD_CLASSIFIER_ITEM_INVALID');
    expectDomainError(check({ konto: '1', tegevus: 'T1' }), 'RECORD_CLASSIFIER_ITEM_UNSELECTABLE');
    expectDomainError(check({ tegevus: 'T1' }), 'RECORD_MASTER_CLASSIFIER_MISSING');
    const missing = refusal(check({ konto: '100', tegevus: null }));
    expect(missing.code).toBe('RECORD_CLASSIFIER_REQUIRED');
    expect(missing.details).toEqual([{ field: `classifiers.${required}`, message: 'validation.requiredField' }]);
  });

  it('keeps a record made in a sub-budget inside it: every scheme classifier equal, an empty one empty too', () => {
    const check = (classifiers: Record<string, string>) => () => checkRecordValues({ ...create.values, classifiers }, inSubBudget);
    expect(check({ konto: '100', tegevus: 'T2' })()).toBeTruthy();
    expectDomainError(check({ konto: '200', tegevus: 'T1' }), 'RECORD_DOES_NOT_MATCH_SUB_BUDGET');
    const extra = refusal(check({ konto: '100', tegevus: 'T1', allikas: 'A' }));
    expect(extra.code).toBe('RECORD_DOES_NOT_MATCH_SUB_BUDGET');
    expect(extra.details).toEqual([{ field: `classifiers.${optional}`, message: 'doesNotMatchSubBudget' }]);
  });
});

describe('record decider', () => {
  it('creates a record once', () => {
    expect(given([]).when(create)()).toEqual([created]);
    expectDomainError(given([created]).when(create), 'CONCURRENT_MODIFICATION');
    expect(given([]).when({ ...create, duplicatedFrom: budgetId })()).toEqual([{ ...created, data: { ...created.data, duplicatedFrom: budgetId } }]);
  });

  it('updates only what changed, and nothing when nothing did', () => {
    const rename: RecordCommand = { type: 'UpdateRecord', recordId, changes: { name: 'Wages' }, facts };
    expect(given([created]).when(rename)()).toEqual([{ type: 'RecordUpdated', data: { ...ref, ...pick(values), name: 'Wages', revertedEventId: null } }]);
    expect(given([created]).when({ ...rename, changes: { name: 'Salaries', amount: '1200.00', classifiers: { konto: '100' } } })()).toEqual([]);
    expectDomainError(given([]).when(rename), 'RECORD_NOT_FOUND');
    expectDomainError(given([created, { type: 'RecordDeleted', data: ref }]).when(rename), 'RECORD_NOT_FOUND');
  });

  it('splits by month, clears a classifier with null, and drops a split a new amount alone no longer matches', () => {
    const split = { ...created, data: { ...created.data, months: months('100') } };
    const update = (changes: Extract<RecordCommand, { type: 'UpdateRecord' }>['changes']) =>
      given([split]).when({ type: 'UpdateRecord', recordId, changes, facts })()[0]?.data;
    expect(update({ months: months('0.1') })).toMatchObject({ amount: '1.2', months: months('0.1') });
    expect(update({ amount: '5' })).toMatchObject({ amount: '5', months: null });
    expect(update({ months: null })).toMatchObject({ amount: '1200', months: null });
    expect(given([split]).when({ type: 'UpdateRecord', recordId, changes: { amount: '1200' }, facts })()).toEqual([]);
    expect(given([created]).when({ type: 'UpdateRecord', recordId, changes: { classifiers: { allikas: 'A' } }, facts })()[0]?.data).toMatchObject({
      classifiers: { [master]: '100', [required]: 'T1', [optional]: 'A' },
    });
    expectDomainError(
      given([created]).when({ type: 'UpdateRecord', recordId, changes: { classifiers: { tegevus: null } }, facts }),
      'RECORD_CLASSIFIER_REQUIRED',
    );
    expectDomainError(
      given([created]).when({ type: 'UpdateRecord', recordId, changes: { classifiers: { konto: '200' } }, facts: inSubBudget }),
      'RECORD_DOES_NOT_MATCH_SUB_BUDGET',
    );
  });

  it('promotes and deletes', () => {
    expect(given([created]).when({ type: 'SetRecordPromotion', recordId, promoted: true })()).toEqual([
      { type: 'RecordPromotionSet', data: { ...ref, promoted: true, revertedEventId: null } },
    ]);
    expect(given([created]).when({ type: 'SetRecordPromotion', recordId, promoted: false })()).toEqual([]);
    expect(given([created]).when({ type: 'DeleteRecord', recordId })()).toEqual([{ type: 'RecordDeleted', data: ref }]);
    expectDomainError(given([created, { type: 'RecordDeleted', data: ref }]).when({ type: 'DeleteRecord', recordId }), 'RECORD_NOT_FOUND');
  });

  describe('an imported record', () => {
    it('is decided on its chunk row while its own stream is empty', () => {
      expectDomainError(given([]).when({ type: 'UpdateRecord', recordId, changes: { name: 'Renamed' }, facts }), 'RECORD_NOT_FOUND');
      expect(given([]).when({ type: 'UpdateRecord', recordId, changes: { name: 'Renamed' }, facts, origin })()).toEqual([
        { type: 'RecordUpdated', data: { ...ref, name: 'Renamed', amount: '10', months: null, classifiers: origin.classifiers, revertedEventId: null } },
      ]);
      expect(given([]).when({ type: 'DeleteRecord', recordId, origin })()).toEqual([{ type: 'RecordDeleted', data: ref }]);
      expectDomainError(given([]).when({ type: 'DeleteRecord', recordId, origin: { ...origin, recordId: budgetId } }), 'RECORD_ID_INVALID');
    });

    it('after a promotion as its first own event still needs its origin for an edit', () => {
      const promoted: RecordEvent = { type: 'RecordPromotionSet', data: { ...ref, promoted: true, revertedEventId: null } };
      expectDomainError(given([promoted]).when({ type: 'UpdateRecord', recordId, changes: { name: 'X' }, facts }), 'RECORD_NOT_FOUND');
      expect(given([promoted]).when({ type: 'UpdateRecord', recordId, changes: { name: 'X' }, facts, origin })()[0]?.data).toMatchObject({
        name: 'X',
        amount: '10',
      });
      expect(given([promoted]).when({ type: 'SetRecordPromotion', recordId, promoted: true })()).toEqual([]);
    });
  });

  describe('reverting a change', () => {
    const renamed: RecordEvent = { type: 'RecordUpdated', data: { ...ref, ...pick(values), name: 'Wages', revertedEventId: null } };
    const reclassified: RecordEvent = {
      type: 'RecordUpdated',
      data: { ...ref, ...pick(values), name: 'Wages', classifiers: { ...values.classifiers, [optional]: 'A' }, revertedEventId: null },
    };
    const revert = (
      target: RecordVersionEvent,
      before: RecordVersionEvent[],
      extra: Partial<Extract<RecordCommand, { type: 'RevertRecordChange' }>> = {},
    ): RecordCommand => ({
      type: 'RevertRecordChange',
      recordId,
      target: { eventId: 'e-target', event: target },
      before,
      facts,
      ...extra,
    });

    it('puts back only the fields the change made, keeping later changes to other fields', () => {
      expect(given([created, renamed, reclassified]).when(revert(renamed, [created]))()).toEqual([
        { type: 'RecordUpdated', data: { ...ref, ...pick(values), classifiers: { ...values.classifiers, [optional]: 'A' }, revertedEventId: 'e-target' } },
      ]);
    });

    it('refuses when a field it changed has changed again since, or the change was already undone', () => {
      const renamedAgain: RecordEvent = { type: 'RecordUpdated', data: { ...ref, ...pick(values), name: 'Pay', revertedEventId: null } };
      expectDomainError(given([created, renamed, renamedAgain]).when(revert(renamed, [created])), 'RECORD_REVERT_NOT_POSSIBLE');
      const undone: RecordEvent = { type: 'RecordUpdated', data: { ...ref, ...pick(values), revertedEventId: 'e-target' } };
      expectDomainError(given([created, renamed, undone]).when(revert(renamed, [created])), 'RECORD_REVERT_NOT_POSSIBLE');
    });

    it('checks the values it puts back against today’s rules', () => {
      const closed: RecordFacts = {
        ...facts,
        classifiers: { ...facts.classifiers, [master]: { ...facts.classifiers[master], items: { '100': { selectable: false } } } },
      } as RecordFacts;
      const moved: RecordEvent = {
        type: 'RecordUpdated',
        data: { ...ref, ...pick(values), classifiers: { ...values.classifiers, [master]: '200' }, revertedEventId: null },
      };
      expectDomainError(given([created, moved]).when(revert(moved, [created], { facts: closed })), 'RECORD_CLASSIFIER_ITEM_UNSELECTABLE');
    });

    it('undoes a promotion while it stands', () => {
      const promoted: RecordEvent = { type: 'RecordPromotionSet', data: { ...ref, promoted: true, revertedEventId: null } };
      expect(given([created, promoted]).when(revert(promoted, [created]))()).toEqual([
        { type: 'RecordPromotionSet', data: { ...ref, promoted: false, revertedEventId: 'e-target' } },
      ]);
      const demoted: RecordEvent = { type: 'RecordPromotionSet', data: { ...ref, promoted: false, revertedEventId: null } };
      expectDomainError(given([created, promoted, demoted]).when(revert(promoted, [created])), 'RECORD_REVERT_NOT_POSSIBLE');
    });

    it('restores a deleted record as it was, imported ones too', () => {
      const deleted: RecordEvent = { type: 'RecordDeleted', data: ref };
      expect(given([created, renamed, deleted]).when(revert(deleted, [created, renamed]))()).toEqual([
        { type: 'RecordRestored', data: { ...ref, ...pick(values), name: 'Wages', promoted: false, revertedEventId: 'e-target' } },
      ]);
      expectDomainError(given([created, renamed]).when(revert(deleted, [created, renamed])), 'RECORD_REVERT_NOT_POSSIBLE');
      expect(given([deleted]).when(revert(deleted, [imported], { origin }))()).toEqual([
        {
          type: 'RecordRestored',
          data: { ...ref, name: 'Imported', amount: '10', months: null, classifiers: origin.classifiers, promoted: false, revertedEventId: 'e-target' },
        },
      ]);
      // Deleted, restored, edited and deleted again: the first deletion is no longer the one in force.
      const restored: RecordEvent = { type: 'RecordRestored', data: { ...ref, ...pick(values), promoted: false, revertedEventId: 'x' } };
      expectDomainError(given([created, deleted, restored, renamed, deleted]).when(revert(deleted, [created])), 'RECORD_REVERT_NOT_POSSIBLE');
    });

    it('does not revert a creation, an import or a restoration (deleting the record does), nor another record’s event', () => {
      expectDomainError(given([created]).when(revert(created, [])), 'RECORD_REVERT_NOT_POSSIBLE');
      expectDomainError(given([]).when(revert(imported, [], { origin })), 'RECORD_REVERT_NOT_POSSIBLE');
      const other: RecordEvent = { type: 'RecordUpdated', data: { ...ref, ...pick(values), recordId: budgetId, revertedEventId: null } };
      expectDomainError(given([created, renamed]).when(revert(other, [created])), 'RECORD_REVERT_NOT_POSSIBLE');
    });
  });
});

describe('record history', () => {
  const by = { userId: 'u1', userName: 'Mari Maasikas', occupationId: 'o1', occupationName: 'Finance' };
  const version = (eventId: string, event: RecordVersion['event'], at: string): RecordVersion => ({ eventId, event, changedBy: by, changedAt: at });

  it('lists every version with the fields it changed, the record as it then stood, and who', () => {
    const history = recordHistory([
      version('e1', imported, '2026-01-01T00:00:00.000Z'),
      version(
        'e2',
        {
          type: 'RecordUpdated',
          data: { ...origin, amount: '0.3', months: null, classifiers: { ...origin.classifiers, [optional]: 'B' }, revertedEventId: null },
        },
        '2026-01-02T00:00:00.000Z',
      ),
      version('e3', { type: 'RecordPromotionSet', data: { ...ref, promoted: true, revertedEventId: null } }, '2026-01-03T00:00:00.000Z'),
      version('e4', { type: 'RecordDeleted', data: ref }, '2026-01-04T00:00:00.000Z'),
      version(
        'e5',
        { type: 'RecordRestored', data: { ...origin, amount: '0.3', months: null, promoted: true, revertedEventId: 'e4' } },
        '2026-01-05T00:00:00.000Z',
      ),
      version('e6', { type: 'RecordPromotionSet', data: { ...ref, promoted: false, revertedEventId: 'e3' } }, '2026-01-06T00:00:00.000Z'),
    ]);
    expect(history.map(({ version: n, kind, changedFields, revertedEventId }) => ({ n, kind, changedFields, revertedEventId }))).toEqual([
      { n: 1, kind: 'IMPORTED', changedFields: ['name', 'amount', `classifiers.${master}`, `classifiers.${required}`], revertedEventId: null },
      { n: 2, kind: 'UPDATED', changedFields: ['amount', `classifiers.${optional}`], revertedEventId: null },
      { n: 3, kind: 'PROMOTED', changedFields: ['extra.promoted'], revertedEventId: null },
      { n: 4, kind: 'DELETED', changedFields: [], revertedEventId: null },
      { n: 5, kind: 'RESTORED', changedFields: [`classifiers.${optional}`], revertedEventId: 'e4' },
      { n: 6, kind: 'REVERTED', changedFields: ['extra.promoted'], revertedEventId: 'e3' },
    ]);
    expect(history[3]?.record).toBeNull();
    expect(history[1]?.record).toEqual({
      id: recordId,
      budgetId,
      documentId,
      name: 'Imported',
      amount: '0.3',
      classifiers: { [master]: '200', [required]: 'T2', [optional]: 'B' },
      factors: { months: null },
      extra: { promoted: false },
      createdAt: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
      user_name: 'Mari Maasikas',
    });
    expect(history[0]?.changedBy).toEqual(by);
  });
});

function pick({ name, amount, months, classifiers }: RecordCreated['data']) {
  return { name, amount, months, classifiers };
}
