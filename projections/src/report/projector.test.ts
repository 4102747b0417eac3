import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GivenEvent, type ProjectorSpec, newId, projectorSpec } from '../../test/given-events';
import { classifiersProjector } from '../classifiers/projector';
import { schemesProjector } from '../schemes/projector';
import { reportProjector, SHARED_FACT_ID } from './projector';
import { type ReportQuery, reportAggregates } from './queries';

let spec: ProjectorSpec;
beforeEach(async () => {
  spec = await projectorSpec([reportProjector, schemesProjector, classifiersProjector] as never);
});
afterEach(async () => spec.close());

const organizationId = newId();
const documentId = newId();
const [budgetId, otherBudgetId] = [newId(), newId()];
const konto = newId();
const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T08:00:00.000Z`;
const on = (day: number) => ({ metadata: { occurredAt: at(day) } });
const ref = (recordId: string, budget = budgetId) => ({ recordId, budgetId: budget, documentId, organizationId });
const stream = (recordId: string) => `record-${recordId}`;

interface Values {
  name: string;
  amount: string;
  months?: string[] | null;
  classifiers: Record<string, string>;
}

const created = (recordId: string, values: Values, day = 1, budget = budgetId): GivenEvent => ({
  stream: stream(recordId),
  type: 'RecordCreated',
  data: { ...ref(recordId, budget), months: null, ...values, promoted: false, duplicatedFrom: null },
  ...on(day),
});
const updated = (recordId: string, values: Values, day: number): GivenEvent => ({
  stream: stream(recordId),
  type: 'RecordUpdated',
  data: { ...ref(recordId), months: null, ...values, revertedEventId: null },
  ...on(day),
});
const promoted = (recordId: string, value: boolean, day: number): GivenEvent => ({
  stream: stream(recordId),
  type: 'RecordPromotionSet',
  data: { ...ref(recordId), promoted: value, revertedEventId: null },
  ...on(day),
});
const deleted = (recordId: string, day: number): GivenEvent => ({ stream: stream(recordId), type: 'RecordDeleted', data: ref(recordId), ...on(day) });
const restored = (recordId: string, values: Values, day: number): GivenEvent => ({
  stream: stream(recordId),
  type: 'RecordRestored',
  data: { ...ref(recordId), months: null, ...values, promoted: false, revertedEventId: newId() },
  ...on(day),
});
const imported = (rows: (Values & { recordId: string })[], day = 1): GivenEvent => {
  const importId = newId();
  return {
    stream: `record-import-${importId}`,
    type: 'RecordsImported',
    data: {
      importId,
      budgetId,
      documentId,
      organizationId,
      chunk: 0,
      originResourceName: 'eelarve.xlsx',
      records: rows.map((row) => ({ months: null, ...row })),
    },
    ...on(day),
  };
};

async function facts() {
  const { rows } = await sql<{ classifiers: Record<string, string>; record_id: string; amount: string; cumulative: string[] | null; records: number }>`
    SELECT classifiers, record_id, trim_scale(amount)::text AS amount, (SELECT array_agg(trim_scale(c)::text) FROM unnest(cumulative) c) AS cumulative, records
      FROM read.report_facts WHERE budget_id = ${budgetId}::uuid ORDER BY classifiers::text, record_id`.execute(spec.db);
  return rows;
}

/** The whole budget's total, now or as of a moment, through the report query (no scheme: every record is in the -2 row). */
async function total(asOf: string | null = null): Promise<string | undefined> {
  const query: ReportQuery = {
    schemeId: newId(),
    schemeClassifierIds: [konto],
    grouping: null,
    sources: [{ budgetIds: [budgetId], asOf, readableSubBudgetIds: null }],
    columns: [{ key: 'base', sources: [0], months: null }],
    listedSubBudgetIds: null,
    classifierConditions: [],
    subBudgetCondition: null,
  };
  const rows = await reportAggregates(spec.read, query);
  return rows.find((row) => row.level === 0)?.sums[0];
}

const a = newId();
const b = newId();
const c = newId();

describe('report projector', () => {
  it('keeps one fact per combination: the amount and the running sums of the splits, promoted records apart', async () => {
    const split = ['1.5', '2.5', ...Array(10).fill('0')];
    await spec.given(
      imported([
        { recordId: a, name: 'A', amount: '10.25', classifiers: { [konto]: '4500' } },
        { recordId: b, name: 'B', amount: '4', months: split, classifiers: { [konto]: '4500' } },
      ]),
      created(c, { name: 'C', amount: '7', classifiers: { [konto]: '4500' } }),
      created(newId(), { name: 'D', amount: '1', months: ['1'], classifiers: { [konto]: '4500' } }),
      promoted(c, true, 2),
    );
    expect(await facts()).toEqual([
      { classifiers: { [konto]: '4500' }, record_id: SHARED_FACT_ID, amount: '15.25', cumulative: ['2.5', '5', ...Array(10).fill('5')], records: 3 },
      { classifiers: { [konto]: '4500' }, record_id: c, amount: '7', cumulative: null, records: 1 },
    ]);
    expect(await total()).toBe('22.25');
  });

  it('moves amounts on edits, deletions and restorations, and drops emptied facts', async () => {
    await spec.given(
      created(a, { name: 'A', amount: '10', classifiers: { [konto]: '4500' } }, 1),
      updated(a, { name: 'A', amount: '12', classifiers: { [konto]: '5500' } }, 2),
      updated(a, { name: 'A', amount: '13', classifiers: { [konto]: '5500' } }, 3),
      created(b, { name: 'B', amount: '1', classifiers: { [konto]: '4500' } }, 3),
      deleted(b, 4),
    );
    expect((await facts()).map((row) => [row.classifiers[konto], row.amount, row.records])).toEqual([['5500', '13', 1]]);
    await spec.given(restored(b, { name: 'B', amount: '1', classifiers: { [konto]: '4500' } }, 5));
    expect(await total()).toBe('14');
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM read.report_record_versions WHERE record_id = ${a}::uuid`.execute(spec.db);
    expect(rows[0]?.n).toBe(3);
  });

  it('moves the running sums of splits on edits and deletions: a shorter split carries its last sum on', async () => {
    await spec.given(
      created(a, { name: 'A', amount: '6', months: ['1', '2', '3'], classifiers: { [konto]: '4500' } }, 1),
      created(b, { name: 'B', amount: '4', months: ['4'], classifiers: { [konto]: '4500' } }, 1),
    );
    expect((await facts()).map((row) => row.cumulative)).toEqual([['5', '7', '10']]);
    await spec.given(updated(a, { name: 'A', amount: '3', months: ['1', '1', '1'], classifiers: { [konto]: '4500' } }, 2), deleted(b, 3));
    expect(await facts()).toEqual([{ classifiers: { [konto]: '4500' }, record_id: SHARED_FACT_ID, amount: '3', cumulative: ['1', '2', '3'], records: 1 }]);
  });

  it('answers the budget as it stood at any moment: versions valid then', async () => {
    await spec.given(
      created(a, { name: 'A', amount: '10', classifiers: { [konto]: '4500' } }, 1),
      created(b, { name: 'B', amount: '5', classifiers: { [konto]: '4500' } }, 2),
      updated(a, { name: 'A', amount: '12.5', classifiers: { [konto]: '4500' } }, 4),
      deleted(b, 6),
      promoted(a, true, 7),
      created(c, { name: 'C', amount: '100', classifiers: { [konto]: '5500' } }, 8),
    );
    expect(await total()).toBe('112.5');
    expect(await total('2026-11-01T12:00:00.000Z')).toBe('10');
    expect(await total('2026-11-03T12:00:00.000Z')).toBe('15');
    expect(await total('2026-11-05T12:00:00.000Z')).toBe('17.5');
    expect(await total('2026-11-07T12:00:00.000Z')).toBe('12.5');
    expect(await total('2026-10-01T00:00:00.000Z')).toBe('0');
    // The as-of index's key: a version's end, or its start while it is current.
    const { rows } = await sql<{ changed: Date }>`SELECT changed_at AS changed FROM read.report_record_versions
      WHERE record_id = ${a}::uuid ORDER BY valid_from_commit, valid_from_prepare`.execute(spec.db);
    expect(rows.map((row) => row.changed.toISOString())).toEqual([at(4), at(7), at(7)]);
  });

  it('analyzes the tables, the columns the report reads, in the batch that changes them past 10,000 rows plus a fifth since it last did', async () => {
    const statistics = async () => {
      const { rows } = await sql<{ table: string; column: string }>`SELECT tablename AS table, attname AS column FROM pg_stats
        WHERE tablename IN ('report_facts', 'report_record_versions') ORDER BY 1, 2`.execute(spec.db);
      return rows.map((row) => `${row.table}.${row.column}`);
    };
    // The projector's own ANALYZEs (autovacuum's are counted apart).
    const analyzes = async () => {
      const { rows } = await sql<{ table: string; count: string }>`SELECT relname AS table, analyze_count AS count FROM pg_stat_user_tables
        WHERE relname IN ('report_facts', 'report_record_versions') AND schemaname LIKE 'rm_report_%' ORDER BY 1`.execute(spec.db);
      return Object.fromEntries(rows.map((row) => [row.table, Number(row.count)]));
    };
    const records = (count: number) =>
      Array.from({ length: count }, (_, index) => ({ recordId: newId(), name: `R${index}`, amount: '1', classifiers: { [konto]: '4500' } }));
    await spec.given(imported([{ recordId: a, name: 'A', amount: '1', classifiers: { [konto]: '4500' } }]));
    expect(await statistics()).toEqual([]);
    // One batch of 12,000 new versions (and one fact): the versions pass, the facts do not.
    await spec.given(imported(records(12_000), 2));
    expect(await statistics()).toEqual(
      ['budget_id', 'changed_at', 'record_id', 'valid_from_at', 'valid_to_at', 'valid_to_commit'].map((column) => `report_record_versions.${column}`),
    );
    expect(await analyzes()).toEqual({ report_facts: 0, report_record_versions: 1 });
    // 3,000 more since: under 10,000 plus a fifth of 12,001, whatever PostgreSQL's own counter says.
    await spec.given(imported(records(3_000), 3));
    expect(await analyzes()).toEqual({ report_facts: 0, report_record_versions: 1 });
    // 11,000 more make 14,000 since the last ANALYZE: past 12,400, and past 13,000 should autovacuum
    // have counted the 15,001 rows meanwhile (the share is of pg_class.reltuples, which it updates).
    await spec.given(imported(records(11_000), 4));
    expect(await analyzes()).toEqual({ report_facts: 0, report_record_versions: 2 });
    expect(await total()).toBe('26001');
  });

  it('forgets a deleted budget', async () => {
    await spec.given(
      created(a, { name: 'A', amount: '10', classifiers: { [konto]: '4500' } }, 1),
      created(c, { name: 'C', amount: '3', classifiers: { [konto]: '4500' } }, 1, otherBudgetId),
      { stream: `budget-${budgetId}`, type: 'BudgetDeleted', data: { budgetId, documentId, organizationId }, ...on(2) },
    );
    expect(await facts()).toEqual([]);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM read.report_record_versions`.execute(spec.db);
    expect(rows[0]?.n).toBe(1);
  });

  it('answers a scheme of one classifier in two halves at once exactly as one statement, the halves merged in the tree order', async () => {
    const schemeId = newId();
    const kind = newId();
    const subBudget = (name: string, code: string | null) => ({
      subBudgetId: newId(),
      name,
      classifiers: code === null ? {} : { [konto]: code },
      preselections: {},
    });
    // Names out of code order, one sub-budget without a code, and records fitting none (the -2 row).
    const subBudgets = [
      subBudget('Sport', '4500'),
      subBudget('Haridus', '4600'),
      subBudget('Kultuur', '4400'),
      subBudget('Muu', null),
      subBudget('Amet', '4700'),
    ];
    const scheme = (type: string, data: object): GivenEvent => ({
      stream: `document-schemes-${documentId}`,
      type,
      data: { documentId, organizationId, ...data },
    });
    const rows = [
      ['4500', 'A', '10.5'],
      ['4500', 'B', '2'],
      ['4600', 'A', '7'],
      ['4400', 'C', '1.25'],
      ['4700', 'B', '3'],
      ['4800', 'A', '100'],
    ].map(([code, item, amount], index) => ({
      recordId: newId(),
      name: `R${index}`,
      amount: amount as string,
      classifiers: { [konto]: code as string, [kind]: item as string },
    }));
    await spec.given(
      scheme('SchemeCreated', {
        schemeId,
        name: 'Kontod',
        fieldName: 'kontod',
        description: '',
        displayOrder: 1,
        classifierList: [{ classifierId: konto, type: 'MAIN' }],
      }),
      scheme('SubBudgetsAdded', { schemeId, subBudgets }),
      imported([...rows, { recordId: newId(), name: 'Ilma kontota', amount: '0.75', classifiers: { [kind]: 'A' } }]),
      promoted(rows[1]?.recordId as string, true, 2),
    );
    const query: ReportQuery = {
      schemeId,
      schemeClassifierIds: [konto],
      grouping: { classifierId: kind, parentClassifierId: null },
      sources: [{ budgetIds: [budgetId], asOf: null, readableSubBudgetIds: null }],
      columns: [{ key: 'base', sources: [0], months: null }],
      listedSubBudgetIds: null,
      classifierConditions: [],
      subBudgetCondition: null,
    };
    const halves = await reportAggregates(spec.read, query);
    const single = await reportAggregates(spec.read, query, { split: 'never' });
    expect(halves).toEqual(single);
    expect(halves[0]?.sums).toEqual(['124.5']);
    // Sub-budgets in name order, each with its items; the one without a code holds the record without one; the -2 row last.
    expect(halves.filter((row) => row.level === 1).map((row) => [row.sub_budget_name ?? row.sub_budget_id, row.sums[0]])).toEqual([
      ['Amet', '3'],
      ['Haridus', '7'],
      ['Kultuur', '1.25'],
      ['Muu', '0.75'],
      ['Sport', '12.5'],
      ['-2', '100'],
    ]);
  });
});
