import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GivenEvent, type ProjectorSpec, newId, projectorSpec } from '../../test/given-events';
import { accountsProjector } from '../accounts/projector';
import { schemesProjector } from '../schemes/projector';
import { schemeRecordCounts, subBudgetsWithRecords } from '../schemes/queries';
import { recordsProjector } from './projector';
import {
  budgetRecordsWhere,
  findRecord,
  findRecordOrigin,
  fittingRecordsWhere,
  listBudgetRecords,
  listSchemeRecords,
  listSubBudgetRecords,
  listUnfitRecords,
  recordCountsByDocument,
  recordsJsonBatches,
  type RecordRow,
  subBudgetFit,
  UNFIT_SUB_BUDGET_ID,
} from './queries';

let spec: ProjectorSpec;
// The queries join users (the last changer's name) and read schemes and sub-budgets.
beforeEach(async () => {
  spec = await projectorSpec([recordsProjector, schemesProjector, accountsProjector] as never);
});
afterEach(async () => spec.close());

/** A list as the routes answer it: the cursor's batches of records' JSON texts, as one JSON array. */
async function listedJson(where: Parameters<typeof recordsJsonBatches>[1]): Promise<string> {
  const texts: string[] = [];
  for await (const batch of recordsJsonBatches(spec.read, where)) texts.push(...batch);
  return `[${texts.join(',')}]`;
}

async function subBudgetListedJson(budgetId: string, subBudgetId: string): Promise<string> {
  const fit = await subBudgetFit(spec.read, subBudgetId);
  if (!fit) throw new Error(`no sub-budget ${subBudgetId}`);
  return listedJson(fittingRecordsWhere(budgetId, fit));
}

const organizationId = newId();
const [documentId, otherDocumentId] = [newId(), newId()];
const [budgetId, otherBudgetId] = [newId(), newId()];
const [konto, tegevus, allikas] = [newId(), newId(), newId()];
const userId = newId();
const occupationId = newId();
const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T08:00:00.000Z`;
const by = (day: number) => ({ metadata: { userId, occupationId, occurredAt: at(day) } });
const months = (value: string) => Array.from({ length: 12 }, () => value);

interface Values {
  name: string;
  amount: string;
  months?: string[] | null;
  classifiers: Record<string, string>;
}

const ref = (recordId: string, budget = budgetId, document = documentId) => ({ recordId, budgetId: budget, documentId: document, organizationId });
const stream = (recordId: string) => `record-${recordId}`;

function created(recordId: string, values: Values, day = 1, budget = budgetId, document = documentId): GivenEvent {
  return {
    stream: stream(recordId),
    type: 'RecordCreated',
    data: { ...ref(recordId, budget, document), months: null, ...values, promoted: false, duplicatedFrom: null },
    ...by(day),
  };
}

function updated(recordId: string, values: Values, day: number): GivenEvent {
  return { stream: stream(recordId), type: 'RecordUpdated', data: { ...ref(recordId), months: null, ...values, revertedEventId: null }, ...by(day) };
}

function imported(importId: string, chunk: number, rows: (Values & { recordId: string })[]): GivenEvent {
  return {
    stream: `record-import-${importId}`,
    type: 'RecordsImported',
    data: { importId, budgetId, documentId, organizationId, chunk, originResourceName: 'eelarve.xlsx', records: rows.map((row) => ({ months: null, ...row })) },
    ...by(2),
  };
}

const schemeId = newId();
const [education, culture, educationFromState] = [newId(), newId(), newId()];
const schemeEvents: GivenEvent[] = [
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
      classifierList: [
        { classifierId: konto, type: 'MAIN' },
        { classifierId: allikas, type: 'SECONDARY' },
      ],
    },
  },
  {
    stream: `document-schemes-${documentId}`,
    type: 'SubBudgetsAdded',
    data: {
      documentId,
      organizationId,
      schemeId,
      subBudgets: [
        { subBudgetId: education, name: 'Haridus', classifiers: { [konto]: '09' }, preselections: {} },
        { subBudgetId: educationFromState, name: 'Haridus (riik)', classifiers: { [konto]: '09', [allikas]: 'RE' }, preselections: {} },
        { subBudgetId: culture, name: 'Kultuur', classifiers: { [konto]: '08' }, preselections: {} },
      ],
    },
  },
];

describe('records projector', () => {
  it('keeps amounts exact through numeric: twelve months of 0.1 add up to 1.2, not 1.2000000000000002', async () => {
    const id = newId();
    await spec.given(
      {
        stream: `user-${userId}`,
        type: 'UserRegistered',
        data: { userId, organizationId, name: 'Mari Maasikas', email: 'mari@example.org', registeredAt: at(1) },
      },
      created(id, { name: 'Õpetajate palgad', amount: '1.2', months: months('0.1'), classifiers: { [konto]: '09', [tegevus]: 'T1' } }),
    );
    expect(await findRecord(spec.read, id)).toEqual({
      id,
      budgetId,
      documentId,
      organizationId,
      name: 'Õpetajate palgad',
      amount: '1.2',
      months: months('0.1'),
      classifiers: { [konto]: '09', [tegevus]: 'T1' },
      promoted: false,
      createdAt: at(1),
      updatedAt: at(1),
      updatedByUserId: userId,
      updatedByUserName: 'Mari Maasikas',
      updatedByOccupationId: occupationId,
      originStream: stream(id),
      originRevision: 0n,
      importId: null,
    });
    const { rows } = await sql<{ total: string }>`select sum(m)::text as total from read.records, unnest(months) as m where id = ${id}::uuid`.execute(spec.db);
    expect(rows[0]?.total).toBe('1.2');
    const big = newId();
    await spec.given(created(big, { name: 'Suur', amount: '999999999999999.999999', classifiers: { [konto]: '09' } }));
    expect((await findRecord(spec.read, big))?.amount).toBe('999999999999999.999999');
    const sum = await spec.db
      .selectFrom('read.records' as never)
      .select((eb) => eb.fn.sum('amount' as never).as('total'))
      .executeTakeFirstOrThrow();
    expect(String((sum as { total: string }).total)).toBe('1000000000000001.199999');
  });

  it('imports chunks in one go, idempotently, and follows an imported record through its own later events', async () => {
    const importId = newId();
    const [a, b, c] = [newId(), newId(), newId()];
    const chunk0 = imported(importId, 0, [
      { recordId: a, name: 'Koolilõuna', amount: '0.3', months: ['0.1', '0.1', '0.1', ...months('0').slice(3)], classifiers: { [konto]: '09' } },
      { recordId: b, name: 'Raamatud', amount: '10', classifiers: { [konto]: '09', [allikas]: 'RE' } },
    ]);
    await spec.given(chunk0, imported(importId, 1, [{ recordId: c, name: 'Kontserdid', amount: '-5.5', classifiers: { [konto]: '08' } }]));
    expect((await listBudgetRecords(spec.read, budgetId)).map((row) => [row.name, row.amount, row.importId, row.originStream, row.originRevision])).toEqual([
      ['Kontserdid', '-5.5', importId, `record-import-${importId}`, 1n],
      ['Koolilõuna', '0.3', importId, `record-import-${importId}`, 0n],
      ['Raamatud', '10', importId, `record-import-${importId}`, 0n],
    ]);
    expect((await findRecord(spec.read, a))?.months).toEqual(['0.1', '0.1', '0.1', ...months('0').slice(3)]);

    // The same chunk projected again (a retried job's event under another id) changes nothing.
    await spec.given({
      ...chunk0,
      data: { ...(chunk0.data as object), records: [{ recordId: a, name: 'Other', amount: '1', months: null, classifiers: {} }] },
    });
    expect((await findRecord(spec.read, a))?.name).toBe('Koolilõuna');

    // Its first own events: a promotion, then an edit.
    await spec.given(
      { stream: stream(a), type: 'RecordPromotionSet', data: { ...ref(a), promoted: true, revertedEventId: null }, ...by(3) },
      updated(a, { name: 'Koolilõuna 2027', amount: '0.7', classifiers: { [konto]: '08' } }, 4),
    );
    expect(await findRecord(spec.read, a)).toMatchObject({
      name: 'Koolilõuna 2027',
      amount: '0.7',
      months: null,
      classifiers: { [konto]: '08' },
      promoted: true,
      createdAt: at(2),
      updatedAt: at(4),
      originStream: `record-import-${importId}`,
      importId,
    });
  });

  it('imports chunks over several statements with any text in names and codes, all in, the same as the rows read back', async () => {
    const importId = newId();
    // Text an array literal or a line-split list would break on: quotes, backslashes, braces, commas, NULL, line breaks in codes.
    const awkward = ['Say "hi"', 'C:\\eelarve\\', '{a,b}', 'NULL', '', "It's ; -- fine", 'Tühik  ja\ttab'];
    const chunks = Array.from({ length: 12 }, (_, chunk) =>
      imported(
        importId,
        chunk,
        Array.from({ length: 500 }, (_, index) => {
          const n = chunk * 500 + index;
          return {
            recordId: newId(),
            name: `${awkward[n % awkward.length]} ${n}`,
            amount: n % 2 === 0 ? '1.2' : `-${n}.05`,
            months: n % 2 === 0 ? months('0.1') : null,
            classifiers: { [konto]: n % 3 === 0 ? 'a"b\\c\nd' : '09', [tegevus]: `T${n % 5}` },
          };
        }),
      ),
    );
    await spec.given(...chunks);
    const rows = await listBudgetRecords(spec.read, budgetId);
    expect(rows).toHaveLength(6_000);
    const sent = new Map(chunks.flatMap((chunk) => (chunk.data as { records: (Values & { recordId: string })[] }).records).map((row) => [row.recordId, row]));
    for (const row of rows) {
      const input = sent.get(row.id)!;
      expect([row.name, row.amount, row.months, row.classifiers]).toEqual([input.name, input.amount, input.months, input.classifiers]);
    }
    const listed = JSON.parse(await listedJson(budgetRecordsWhere(budgetId))) as {
      id: string;
      name: string;
      classifiers: unknown;
      factors: { months: unknown };
    }[];
    expect(listed.map((record) => [record.id, record.name, record.classifiers, record.factors.months])).toEqual(
      rows.map((row) => [row.id, row.name, row.classifiers, row.months]),
    );
    const { rows: counts } = await sql<{
      records: number;
    }>`select sum(records)::int as records from read.record_combinations where budget_id = ${budgetId}`.execute(spec.db);
    expect(counts[0]?.records).toBe(6_000);
  });

  it('applies a run of edits and promotions of several records in order: the last values, flag and author win', async () => {
    const [x, y] = [newId(), newId()];
    const promotion = (id: string, promoted: boolean, day: number): GivenEvent => ({
      stream: stream(id),
      type: 'RecordPromotionSet',
      data: { ...ref(id), promoted, revertedEventId: null },
      ...by(day),
    });
    await spec.given(
      created(x, { name: 'X', amount: '1', classifiers: { [konto]: '09' } }),
      created(y, { name: 'Y', amount: '2', classifiers: { [konto]: '09' } }),
      updated(
        x,
        {
          name: 'X1',
          amount: '1.1',
          months: ['0', ...months('0.1').slice(1)],
          classifiers: { [konto]: '08' },
        },
        3,
      ),
      promotion(x, true, 4),
      promotion(y, true, 4),
      updated(x, { name: 'X2', amount: '3', classifiers: { [konto]: '09', [tegevus]: 'T1' } }, 5),
      promotion(y, false, 6),
      { ...updated(y, { name: 'Y2', amount: '2', classifiers: { [konto]: '09' } }, 7), metadata: { userId: null, occupationId: null, occurredAt: at(7) } },
    );
    expect(await findRecord(spec.read, x)).toMatchObject({
      name: 'X2',
      amount: '3',
      months: null,
      classifiers: { [konto]: '09', [tegevus]: 'T1' },
      promoted: true,
      updatedAt: at(5),
    });
    expect(await findRecord(spec.read, y)).toMatchObject({ name: 'Y2', promoted: false, updatedAt: at(7), updatedByUserId: null, updatedByOccupationId: null });
  });

  it('lists records as the API answers them, the same whether the row was written new or rebuilt after an edit, promotion or restoration', async () => {
    const importId = newId();
    const [made, edited, promoted, restored] = [newId(), newId(), newId(), newId()];
    await spec.given(
      ...schemeEvents,
      {
        stream: `user-${userId}`,
        type: 'UserRegistered',
        data: { userId, organizationId, name: 'Jüri "JJ" Tamm', email: 'j@example.org', registeredAt: at(1) },
      },
      created(made, { name: 'Uus', amount: '1.2', months: months('0.1'), classifiers: { [konto]: '09' } }),
      imported(importId, 0, [
        { recordId: edited, name: 'Imporditud', amount: '5', classifiers: { [konto]: '09' } },
        { recordId: promoted, name: 'Esile', amount: '-0.5', classifiers: { [konto]: '09' } },
        { recordId: restored, name: 'Tagasi', amount: '7', classifiers: { [konto]: '09' } },
      ]),
      updated(edited, { name: 'Muudetud', amount: '0.3', months: ['0.3', ...months('0').slice(1)], classifiers: { [konto]: '09', [tegevus]: 'T1' } }, 3),
      { stream: stream(promoted), type: 'RecordPromotionSet', data: { ...ref(promoted), promoted: true, revertedEventId: null }, ...by(4) },
      { stream: stream(restored), type: 'RecordDeleted', data: ref(restored), ...by(5) },
      {
        stream: stream(restored),
        type: 'RecordRestored',
        data: { ...ref(restored), name: 'Tagasi', amount: '7', months: null, classifiers: { [konto]: '09' }, promoted: true, revertedEventId: newId() },
        ...by(6),
      },
    );
    const asApi = (row: RecordRow) => ({
      id: row.id,
      budgetId: row.budgetId,
      documentId: row.documentId,
      name: row.name,
      amount: row.amount,
      classifiers: row.classifiers,
      factors: { months: row.months },
      extra: { promoted: row.promoted },
      hasComments: false,
      hasCommentAttachments: false,
      createdAt: row.createdAt,
      updated_at: row.updatedAt,
      user_name: row.updatedByUserName,
    });
    const expected = (await listBudgetRecords(spec.read, budgetId)).map(asApi);
    expect(expected.map((record) => [record.name, record.amount, record.extra.promoted, record.user_name])).toEqual([
      ['Esile', '-0.5', true, 'Jüri "JJ" Tamm'],
      ['Muudetud', '0.3', false, 'Jüri "JJ" Tamm'],
      ['Tagasi', '7', true, 'Jüri "JJ" Tamm'],
      ['Uus', '1.2', false, 'Jüri "JJ" Tamm'],
    ]);
    expect(JSON.parse(await listedJson(budgetRecordsWhere(budgetId)))).toEqual(expected);
    expect(JSON.parse(await subBudgetListedJson(budgetId, education))).toEqual(expected);
    expect(await subBudgetListedJson(budgetId, culture)).toBe('[]');
  });

  it('removes a deleted record, keeps where it was born, and brings it back on restoration', async () => {
    const importId = newId();
    const [kept, gone] = [newId(), newId()];
    await spec.given(
      imported(importId, 0, [
        { recordId: kept, name: 'A', amount: '1', classifiers: { [konto]: '09' } },
        { recordId: gone, name: 'B', amount: '2', classifiers: { [konto]: '09' } },
      ]),
      { stream: stream(gone), type: 'RecordDeleted', data: ref(gone), ...by(3) },
    );
    expect((await listBudgetRecords(spec.read, budgetId)).map((row) => row.id)).toEqual([kept]);
    expect(await findRecord(spec.read, gone)).toBeUndefined();
    expect(await findRecordOrigin(spec.read, gone)).toEqual({
      id: gone,
      budgetId,
      documentId,
      organizationId,
      originStream: `record-import-${importId}`,
      originRevision: 0n,
      importId,
      deleted: true,
    });
    await spec.given({
      stream: stream(gone),
      type: 'RecordRestored',
      data: { ...ref(gone), name: 'B', amount: '2', months: null, classifiers: { [konto]: '09' }, promoted: false, revertedEventId: newId() },
      ...by(4),
    });
    expect(await findRecord(spec.read, gone)).toMatchObject({
      name: 'B',
      createdAt: at(2),
      updatedAt: at(4),
      originStream: `record-import-${importId}`,
      importId,
    });
    expect((await findRecordOrigin(spec.read, gone))?.deleted).toBe(false);
  });

  it('keeps one combination row per classifier values with records: an edit or deletion that empties one removes it, and only it', async () => {
    const [moved, deleted, stays, elsewhere] = [newId(), newId(), newId(), newId()];
    await spec.given(
      created(moved, { name: 'A', amount: '1', classifiers: { [konto]: '01' } }),
      created(deleted, { name: 'B', amount: '2', classifiers: { [konto]: '02' } }),
      created(stays, { name: 'C', amount: '3', classifiers: { [konto]: '03' } }),
      created(elsewhere, { name: 'D', amount: '4', classifiers: { [konto]: '01' } }, 1, otherBudgetId),
    );
    const combinations = async () =>
      (
        await sql<{ budget_id: string; code: string; records: number }>`select budget_id, classifiers ->> ${konto} as code, records
          from read.record_combinations order by budget_id = ${budgetId}, code`.execute(spec.db)
      ).rows.map((row) => `${row.budget_id === budgetId ? 'b' : 'other'}:${row.code}:${row.records}`);
    expect(await combinations()).toEqual(['other:01:1', 'b:01:1', 'b:02:1', 'b:03:1']);
    await spec.given(updated(moved, { name: 'A', amount: '1', classifiers: { [konto]: '03' } }, 2), {
      stream: stream(deleted),
      type: 'RecordDeleted',
      data: ref(deleted),
      ...by(3),
    });
    // The other budget's row with the same values stays: it lost nothing.
    expect(await combinations()).toEqual(['other:01:1', 'b:03:2']);
  });

  it('places records in the sub-budgets of a scheme (an empty scheme classifier must be empty) or in the -2 row, with counts', async () => {
    const [school, stateSchool, concert, unfit, elsewhere] = [newId(), newId(), newId(), newId(), newId()];
    await spec.given(
      ...schemeEvents,
      created(school, { name: 'Kool', amount: '100', classifiers: { [konto]: '09', [tegevus]: 'T1' } }),
      created(stateSchool, { name: 'Kool (riik)', amount: '50', classifiers: { [konto]: '09', [allikas]: 'RE' } }),
      created(concert, { name: 'Kontsert', amount: '10', classifiers: { [konto]: '08', [tegevus]: 'T2' } }),
      created(unfit, { name: 'Muu', amount: '1', classifiers: { [konto]: '07' } }),
      created(elsewhere, { name: 'Teine eelarve', amount: '1', classifiers: { [konto]: '09' } }, 1, otherBudgetId),
    );
    const names = (rows: { name: string }[]) => rows.map((row) => row.name);
    expect(names(await listSubBudgetRecords(spec.read, budgetId, education))).toEqual(['Kool']);
    expect(names(await listSubBudgetRecords(spec.read, budgetId, educationFromState))).toEqual(['Kool (riik)']);
    expect(names(await listSubBudgetRecords(spec.read, budgetId, culture))).toEqual(['Kontsert']);
    expect(await listSubBudgetRecords(spec.read, budgetId, newId())).toEqual([]);
    expect((await listSchemeRecords(spec.read, budgetId, schemeId)).map((row) => [row.name, row.subBudgetId])).toEqual([
      ['Kontsert', culture],
      ['Kool', education],
      ['Kool (riik)', educationFromState],
      ['Muu', UNFIT_SUB_BUDGET_ID],
    ]);
    expect(names(await listUnfitRecords(spec.read, budgetId, schemeId))).toEqual(['Muu']);
    // Counted from the budgets' combinations of values, which the records table's triggers keep.
    const counts = async (budget: string | null) => Object.fromEntries((await schemeRecordCounts(spec.read, schemeId, budget)).counts);
    expect(await counts(budgetId)).toEqual({ [education]: 1, [educationFromState]: 1, [culture]: 1, [UNFIT_SUB_BUDGET_ID]: 1 });
    expect(await counts(otherBudgetId)).toEqual({ [education]: 1 });
    expect(await counts(null)).toEqual({ [education]: 2, [educationFromState]: 1, [culture]: 1, [UNFIT_SUB_BUDGET_ID]: 1 });
    expect(await subBudgetsWithRecords(spec.read, [education, educationFromState, culture], otherBudgetId)).toEqual([education]);

    // Moved out of its sub-budget by an edit.
    await spec.given(updated(school, { name: 'Kool', amount: '100', classifiers: { [konto]: '08' } }, 5));
    expect(names(await listSubBudgetRecords(spec.read, budgetId, culture))).toEqual(['Kontsert', 'Kool']);
    expect(await counts(budgetId)).toEqual({ [educationFromState]: 1, [culture]: 2, [UNFIT_SUB_BUDGET_ID]: 1 });
    // A deleted budget takes its records' combinations along.
    await spec.given({ stream: `budget-${otherBudgetId}`, type: 'BudgetDeleted', data: { budgetId: otherBudgetId, documentId, organizationId } });
    expect(await counts(otherBudgetId)).toEqual({});
  });

  it('pages by (name, id) and counts per document', async () => {
    const ids = [newId(), newId(), newId(), newId(), newId()];
    await spec.given(
      ...schemeEvents,
      ...ids.map((id, index) => created(id, { name: `Rida ${index % 3}`, amount: '1', classifiers: { [konto]: '09' } })),
      created(newId(), { name: 'Mujal', amount: '1', classifiers: {} }, 1, otherBudgetId, otherDocumentId),
    );
    const all = await listSubBudgetRecords(spec.read, budgetId, education);
    const first = await listSubBudgetRecords(spec.read, budgetId, education, { limit: 2 });
    const last = first.at(-1);
    const rest = await listSubBudgetRecords(spec.read, budgetId, education, { after: last ? { name: last.name, id: last.id } : null, limit: 10 });
    expect([...first, ...rest].map((row) => row.id)).toEqual(all.map((row) => row.id));
    expect(first).toHaveLength(2);
    expect(Object.fromEntries(await recordCountsByDocument(spec.read, [documentId, otherDocumentId, newId()]))).toEqual({
      [documentId]: 5,
      [otherDocumentId]: 1,
    });
  });

  it('forgets the records of a deleted budget, document or organisation', async () => {
    const [one, two, three] = [newId(), newId(), newId()];
    const otherOrganization = newId();
    await spec.given(
      created(one, { name: 'A', amount: '1', classifiers: {} }),
      created(two, { name: 'B', amount: '1', classifiers: {} }, 1, otherBudgetId, otherDocumentId),
      {
        ...created(three, { name: 'C', amount: '1', classifiers: {} }, 1, newId(), newId()),
        data: {
          ...ref(three),
          budgetId: newId(),
          organizationId: otherOrganization,
          months: null,
          name: 'C',
          amount: '1',
          classifiers: {},
          promoted: false,
          duplicatedFrom: null,
        },
      },
      { stream: stream(one), type: 'RecordDeleted', data: ref(one) },
    );
    await spec.given(
      { stream: `budget-${budgetId}`, type: 'BudgetDeleted', data: { budgetId, documentId, organizationId } },
      { stream: `document-${otherDocumentId}`, type: 'DocumentDeleted', data: { documentId: otherDocumentId, organizationId } },
      { stream: `organization-${otherOrganization}`, type: 'OrganizationDeleted', data: { organizationId: otherOrganization } },
    );
    expect(await findRecordOrigin(spec.read, one)).toBeUndefined();
    expect(await findRecord(spec.read, two)).toBeUndefined();
    expect(await findRecord(spec.read, three)).toBeUndefined();
  });
});
