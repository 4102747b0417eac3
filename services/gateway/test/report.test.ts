import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { calculatedValue, canonicalAmount, type ReportResponse, reportSumsByKey, sumAmounts } from '@eelarve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { created, IN_PREPARATION, importedRecords, type RecordsWorld, recordsWorld } from './records-world';

/**
 * The report API (issue 12, points 1, 2 and 7) on a real PostgreSQL: totals checked against sums
 * computed here, apart from the product's SQL, in exact decimals over generated records, for each
 * grouping level, period, expansion, comparison and calculated column; access; filters; as of a
 * past moment.
 */

let world: RecordsWorld;

const MONTHS = 12;

interface Row {
  recordId?: string;
  name: string;
  amount: string;
  months: string[] | null;
  classifiers: Record<string, string>;
}

const request = (client = world.editor.client, budgetId: string, payload: object) =>
  client.request({ method: 'POST', url: `/api/budget/${budgetId}/report`, payload: { schemeId: world.schemeId, ...payload } });

async function reportOf(budgetId: string, payload: object, client = world.editor.client) {
  const response = await request(client, budgetId, payload);
  expect(response.statusCode, response.body).toBe(200);
  const report = response.json() as ReportResponse;
  // The answer lists each row's sums in the columns' order, once per column.
  for (const row of [report.total, ...report.rows]) expect(row.sums).toHaveLength(report.columns.length);
  return reportSumsByKey(report);
}

/** Waits until the report read model has applied everything appended so far. */
async function reportCaughtUp() {
  const head = await world.server.app.store.headPosition();
  expect(await world.server.app.projections.waitForPosition(['report'], head, 10_000)).toBe(true);
}

const json = (response: { json(): unknown }) => response.json() as { code: string; details?: unknown };

beforeAll(async () => {
  world = await recordsWorld();
  // A classifier grouping `konto`'s items: 4500 → K (kulud), 5500 → T (tulud), the report's parent level.
  const admin = world.admin;
  const group = await created(
    await admin.request({
      method: 'POST',
      url: `/api/document/${world.documentId}/classifier`,
      payload: {
        name: 'Kontogrupp',
        itemName: 'Grupp',
        fieldName: 'kontogrupp',
        description: '',
        groupingId: world.account,
        codeSettings: { typeName: 'Code', minLength: 1, maxLength: 20, hierarchical: false },
      },
    }),
  );
  const item = async (code: string, name: string) =>
    created(await admin.request({ method: 'POST', url: `/api/classifier/${group}/item`, payload: { code, name } }));
  const [costs, income] = [await item('K', 'Kulud'), await item('T', 'Tulud')];
  const items = (await admin.request({ method: 'GET', url: `/api/classifier/${world.account}/items` })).json() as { id: string; code: string }[];
  const idOf = (code: string) => items.find((row) => row.code === code)?.id;
  for (const [code, parent] of [
    ['4500', costs],
    ['5500', income],
  ] as const) {
    const response = await admin.request({
      method: 'PUT',
      url: `/api/classifier/${world.account}/items`,
      payload: { itemIds: [idOf(code)], groupedBy: [{ classifierId: group, itemId: parent }] },
    });
    expect(response.statusCode, response.body).toBe(200);
  }
}, 120_000);

afterAll(async () => world?.server.close());

// ---- the independent computation ----

const subBudgetOf = (row: Row) => (row.classifiers[world.kind] === '01' ? world.education : row.classifiers[world.kind] === '02' ? world.culture : '-2');
const groupOf = (row: Row) => (row.classifiers[world.account] === '4500' ? 'K' : row.classifiers[world.account] === '5500' ? 'T' : '');

/** A record's amount in months from..to (1-based); null range: the whole period, unsplit amounts too. */
function amountIn(row: Row, months: { from: number; to: number } | null): string {
  if (months === null) return row.amount;
  if (row.months === null) return '0';
  return sumAmounts(row.months.slice(months.from - 1, months.to));
}

interface ExpectedColumn {
  key: string;
  rows: () => (Row & { promoted?: boolean })[];
  months: { from: number; to: number } | null;
}

/** Expected sums per row key for sum columns, over records kept by `keep`. */
function expectedSums(columns: readonly ExpectedColumn[], promotedIds: ReadonlySet<string>): Map<string, Record<string, string>> {
  const byKey = new Map<string, Record<string, string[]>>();
  const add = (key: string, column: string, value: string) => {
    const sums = byKey.get(key) ?? {};
    sums[column] = [...(sums[column] ?? []), value];
    byKey.set(key, sums);
  };
  for (const column of columns) {
    for (const row of column.rows()) {
      const value = amountIn(row, column.months);
      const sub = `s:${subBudgetOf(row)}`;
      const parent = `${sub}/g:${groupOf(row)}`;
      const item = `${parent}/i:${row.classifiers[world.account] ?? ''}`;
      for (const key of ['total', sub, parent, item]) add(key, column.key, value);
      if (row.recordId && promotedIds.has(row.recordId)) add(`${item}/r:${row.recordId}`, column.key, value);
    }
  }
  return new Map([...byKey].map(([key, sums]) => [key, Object.fromEntries(Object.entries(sums).map(([column, values]) => [column, sumAmounts(values)]))]));
}

// ---- generated records ----

/** An amount in cents as decimal text ('-12.05'), never through a binary float. */
const cents = fc.integer({ min: -5_000_000, max: 50_000_000 }).map((value) => {
  const digits = String(Math.abs(value)).padStart(3, '0');
  return canonicalAmount(`${value < 0 ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`) as string;
});
const generatedRow = fc.record({
  name: fc.constantFrom('Palgad', 'Toit', 'Rent', 'Küte'),
  kind: fc.constantFrom('01', '02', '0'),
  account: fc.constantFrom('4500', '5500'),
  source: fc.constantFrom('A', 'B', null),
  split: fc.option(fc.array(cents, { minLength: MONTHS, maxLength: MONTHS }), { nil: null }),
  amount: cents,
});
type Generated = typeof generatedRow extends fc.Arbitrary<infer T> ? T : never;

function rowOf(generated: Generated): Row {
  const months = generated.split;
  return {
    name: generated.name,
    amount: months ? sumAmounts(months) : generated.amount,
    months,
    classifiers: {
      [world.kind]: generated.kind,
      [world.account]: generated.account,
      ...(generated.source ? { [world.source]: generated.source } : {}),
    },
  };
}

async function budgetWith(rows: Row[]): Promise<{ budgetId: string; rows: Row[] }> {
  const budgetId = await world.budget();
  const ids = rows.length > 0 ? await importedRecords(world, budgetId, rows) : [];
  return { budgetId, rows: rows.map((row, index) => ({ ...row, recordId: ids[index] })) };
}

describe('calculated columns', () => {
  it('compute exactly, a percentage to 6 places, none of 0, and 0 below the 0.001 tolerance', () => {
    expect(calculatedValue('1', '3', 'percent')).toBe('33.333333');
    expect(calculatedValue('2', '3', 'percent')).toBe('66.666667');
    expect(calculatedValue('5', '0', 'percent')).toBeNull();
    expect(calculatedValue('0.1', '0.2', 'plus')).toBe('0.3');
    expect(calculatedValue('10.0005', '10', 'minus')).toBe('0');
    expect(calculatedValue('10', '10.001', 'minus')).toBe('-0.001');
    expect(calculatedValue('0.000001', '1000', 'percent')).toBe('0');
    expect(calculatedValue(null, '1', 'plus')).toBeNull();
  });
});

describe('report totals equal independent sums', () => {
  it('for every level, period, expansion, comparison and calculated column', async () => {
    const period = fc.integer({ min: 1, max: MONTHS }).chain((from) => fc.record({ from: fc.constant(from), to: fc.integer({ min: from, max: MONTHS }) }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(generatedRow, { minLength: 0, maxLength: 25 }),
        fc.array(generatedRow, { minLength: 0, maxLength: 10 }),
        fc.option(period, { nil: null }),
        period,
        fc.constantFrom('none', 'quarterly', 'monthly'),
        fc.constantFrom('percent', 'minus', 'plus'),
        async (baseRows, otherRows, basePeriod, copyPeriod, expansion, operation) => {
          const base = await budgetWith(baseRows.map(rowOf));
          const other = await budgetWith(otherRows.map(rowOf));
          await reportCaughtUp();
          const start = (months: { from: number; to: number } | null) =>
            months && { start: `2026-${String(months.from).padStart(2, '0')}-01`, duration: months.to - months.from + 1 };
          const report = await reportOf(base.budgetId, {
            groupingClassifierId: world.account,
            basePeriod: start(basePeriod),
            comparisons: [
              { key: 'other', budgetId: other.budgetId },
              { key: 'copy', budgetId: base.budgetId, copy: true, period: start(copyPeriod) },
            ],
            calcColumns: [
              { id: 'calc', firstOperand: 'base', secondOperand: 'other', operation },
              { id: 'share', firstOperand: 'copy', secondOperand: 'base' },
            ],
            expansion,
          });
          const step = expansion === 'quarterly' ? 3 : expansion === 'monthly' ? 1 : 0;
          const columns: ExpectedColumn[] = [];
          const addColumn = (key: string, rows: () => Row[], months: { from: number; to: number } | null) => {
            columns.push({ key, rows, months });
            if (step === 0) return;
            const { from, to } = months ?? { from: 1, to: MONTHS };
            for (let first = from; first <= to; first += step) {
              columns.push({ key: `${key}:2026-${String(first).padStart(2, '0')}`, rows, months: { from: first, to: Math.min(first + step - 1, to) } });
            }
          };
          addColumn('base', () => base.rows, basePeriod);
          addColumn('other', () => other.rows, null);
          addColumn('copy', () => base.rows, copyPeriod);
          expect(report.columns.filter((column) => column.kind === 'SUM').map((column) => column.key)).toEqual(columns.map((column) => column.key));
          const expected = expectedSums(columns, new Set());
          const rows = [{ key: 'total', sums: report.total.sums }, ...report.rows];
          // Every row with amounts is there, and only rows with amounts or listed sub-budgets.
          const withAmounts = [...expected.keys()].filter((key) => !key.includes('/r:'));
          expect(rows.map((row) => row.key).sort()).toEqual([...new Set([...withAmounts, `s:${world.education}`, `s:${world.culture}`, 'total'])].sort());
          for (const row of rows) {
            const sums = expected.get(row.key) ?? {};
            for (const column of columns) expect(row.sums[column.key], `${row.key} ${column.key}`).toBe(sums[column.key] ?? '0');
            expect(row.sums.calc, `${row.key} calc`).toBe(calculatedValue(row.sums.base ?? null, row.sums.other ?? null, operation));
            expect(row.sums.share, `${row.key} share`).toBe(calculatedValue(row.sums.copy ?? null, row.sums.base ?? null, 'percent'));
          }
        },
      ),
      { numRuns: 6 },
    );
  }, 300_000);
});

describe('report rows', () => {
  let budgetId: string;
  let ids: string[];

  beforeAll(async () => {
    budgetId = await world.budget();
    ids = await importedRecords(world, budgetId, [
      { name: 'Õpetajad', amount: '100.5', months: null, classifiers: { [world.kind]: '01', [world.account]: '4500', [world.source]: 'A' } },
      { name: 'Raamatud', amount: '20', months: null, classifiers: { [world.kind]: '01', [world.account]: '5500' } },
      { name: 'Kontserdid', amount: '7.25', months: null, classifiers: { [world.kind]: '02', [world.account]: '4500', [world.source]: 'B' } },
      { name: 'Sobimatu', amount: '3', months: null, classifiers: { [world.kind]: '0', [world.account]: '4500' } },
    ]);
    const promote = await world.editor.client.request({
      method: 'POST',
      url: `/api/budget/${budgetId}/sub-budget/${world.education}/record/${ids[0]}/promote`,
    });
    expect(promote.statusCode, promote.body).toBe(200);
    await reportCaughtUp();
  });

  it('flattens the tree: sub-budgets by name with the -2 row last, groups, items, promoted records, a total', async () => {
    const report = await reportOf(budgetId, { groupingClassifierId: world.account });
    expect(report.total.sums.base).toBe('130.75');
    const education = `s:${world.education}`;
    expect(report.rows.map((row) => [row.key, row.type, row.depth, row.text, row.sums.base])).toEqual([
      [education, 'SUB_BUDGET', 0, 'Haridus', '120.5'],
      [`${education}/g:K`, 'CLASSIFIER_GROUP', 1, 'K Kulud', '100.5'],
      [`${education}/g:K/i:4500`, 'CLASSIFIER_ITEM', 2, '4500 Item 4500', '100.5'],
      [`${education}/g:K/i:4500/r:${ids[0]}`, 'PROMOTED_RECORD', 3, 'Õpetajad', '100.5'],
      [`${education}/g:T`, 'CLASSIFIER_GROUP', 1, 'T Tulud', '20'],
      [`${education}/g:T/i:5500`, 'CLASSIFIER_ITEM', 2, '5500 Item 5500', '20'],
      [`s:${world.culture}`, 'SUB_BUDGET', 0, 'Kultuur', '7.25'],
      [`s:${world.culture}/g:K`, 'CLASSIFIER_GROUP', 1, 'K Kulud', '7.25'],
      [`s:${world.culture}/g:K/i:4500`, 'CLASSIFIER_ITEM', 2, '4500 Item 4500', '7.25'],
      ['s:-2', 'UNFIT', 0, '', '3'],
      ['s:-2/g:K', 'CLASSIFIER_GROUP', 1, 'K Kulud', '3'],
      ['s:-2/g:K/i:4500', 'CLASSIFIER_ITEM', 2, '4500 Item 4500', '3'],
    ]);
    const group = report.rows[1] as { parentKey: string | null; hasChildren: boolean; filterValue: string | null; extra?: unknown };
    expect(group).toMatchObject({ parentKey: education, hasChildren: true, filterValue: 'K', extra: { paths: ['4500'] } });
    // Without a grouping classifier: sub-budgets and promoted records only.
    const plain = await reportOf(budgetId, {});
    expect(plain.rows.map((row) => row.key)).toEqual([education, `${education}/r:${ids[0]}`, `s:${world.culture}`, 's:-2']);
  });

  it('filters by sub-budget, classifier codes, search term, combined search, regular expression and parent level', async () => {
    const filter = (type: string, id: string, fields: object) => ({ key: { id, type }, ...fields });
    const total = async (filters: object[]) => (await reportOf(budgetId, { groupingClassifierId: world.account, filters })).total.sums.base;
    expect(await total([filter('CLASSIFIER', world.account, { selectedItems: ['5500'] })])).toBe('20');
    expect(await total([filter('CLASSIFIER', world.account, { selectedItems: ['5500'], enabled: false })])).toBe('130.75');
    expect(await total([filter('CLASSIFIER', world.source, { selectedItems: ['A', 'B'] })])).toBe('107.75');
    expect(await total([filter('CLASSIFIER', world.account, { searchTerm: '45' })])).toBe('110.75');
    expect(await total([filter('CLASSIFIER', world.account, { comboSearch: '5500 item' })])).toBe('20');
    expect(await total([filter('CLASSIFIER', world.account, { regex: '^55' })])).toBe('20');
    expect(await total([filter('CLASSIFIER', world.account, { selectedItems: ['T'], hierarchyDepth: 1 })])).toBe('20');
    expect(await total([filter('MASTER_CLASSIFIER', world.kind, { selectedItems: ['02'] })])).toBe('7.25');
    expect(await total([filter('SUB_BUDGET', 'SUB_BUDGET', { selectedItems: [world.culture, '-2'] })])).toBe('10.25');
    expect(await total([filter('SUB_BUDGET', 'SUB_BUDGET', { searchTerm: 'hari' })])).toBe('120.5');
    const invalid = await request(world.editor.client, budgetId, { filters: [filter('CLASSIFIER', world.account, { regex: '(' })] });
    expect(invalid.statusCode, invalid.body).toBe(400);
    // Valid in JavaScript, not in PostgreSQL: refused the same way, never a 500.
    const unsupported = await request(world.editor.client, budgetId, { filters: [filter('CLASSIFIER', world.account, { regex: '\\p{L}' })] });
    expect(unsupported.statusCode, unsupported.body).toBe(400);
    expect(json(unsupported).code).toBe('SCHEMA_VALIDATION_ERROR');
    const unknown = await request(world.editor.client, budgetId, { filters: [filter('CLASSIFIER', randomUUID(), { selectedItems: ['1'] })] });
    expect(json(unknown).code).toBe('CLASSIFIER_NOT_FOUND');
  });

  it('refuses periods outside the document period, unknown operands and unknown schemes', async () => {
    const outside = await request(world.editor.client, budgetId, { basePeriod: { start: '2026-11-01', duration: 3 } });
    expect(outside.statusCode).toBe(400);
    expect(json(outside).details).toEqual([{ path: 'basePeriod', message: 'periodOutsideDocument' }]);
    const before = await request(world.editor.client, budgetId, { basePeriod: { start: '2025-12-01', duration: 1 } });
    expect(before.statusCode).toBe(400);
    const operand = await request(world.editor.client, budgetId, { calcColumns: [{ id: 'x', firstOperand: 'base', secondOperand: 'nowhere' }] });
    expect(json(operand).details).toEqual([{ path: 'calcColumns.0.secondOperand', message: 'validation.invalid' }]);
    expect((await request(world.editor.client, budgetId, { schemeId: randomUUID() })).statusCode).toBe(404);
    expect((await request(world.editor.client, budgetId, { expansion: 'weekly' })).statusCode).toBe(400);
  });
});

describe('report access', () => {
  it('counts only the sub-budgets a caller reads, in every column, and refuses comparison budgets they cannot read', async () => {
    const rows = (kind: string, account: string, amount: string): Row => ({
      name: 'Rida',
      amount,
      months: null,
      classifiers: { [world.kind]: kind, [world.account]: account },
    });
    await importedRecords(world, world.grantedBudget, [rows('01', '4500', '11'), rows('02', '4500', '22'), rows('0', '5500', '33')]);
    const other = await world.budget();
    await reportCaughtUp();
    const full = await reportOf(world.grantedBudget, {}, world.reader.client);
    expect(full.total.sums.base).toBe('66');
    const granted = await reportOf(
      world.grantedBudget,
      { comparisons: [{ key: 'again', budgetId: world.grantedBudget, copy: true }] },
      world.subBudgetEditor.client,
    );
    expect(granted.rows.map((row) => [row.key, row.type, row.sums.base, row.sums.again])).toEqual([[`s:${world.education}`, 'SUB_BUDGET', '11', '11']]);
    expect(granted.total.sums).toEqual({ base: '11', again: '11' });
    // A reader may read but not change: the rows say so.
    expect((await reportOf(world.grantedBudget, {}, world.reader.client)).rows[0]?.type).toBe('DISABLED_SUB_BUDGET');
    const refused = await request(world.subBudgetEditor.client, world.grantedBudget, { comparisons: [{ key: 'other', budgetId: other }] });
    expect(refused.statusCode).toBe(403);
    expect(json(refused).code).toBe('INSUFFICIENT_PERMISSIONS');
    const outsider = await request(world.outsider.client, world.grantedBudget, {});
    expect(outsider.statusCode).toBe(404);
    expect(json(outsider).code).toBe('BUDGET_NOT_FOUND');
  });
});

describe('sum budget report', () => {
  it('adds up its components, and shows each as a column of its own', async () => {
    const row = (kind: string, amount: string, months: string[] | null = null): Row => ({
      name: 'Rida',
      amount,
      months,
      classifiers: { [world.kind]: kind, [world.account]: '4500' },
    });
    const first = await world.budget();
    const second = await world.budget();
    await importedRecords(world, first, [row('01', '10'), row('02', '2.5', ['1', '1.5', ...Array(10).fill('0')])]);
    await importedRecords(world, second, [row('01', '0.25')]);
    const sum = await created(
      await world.admin.request({
        method: 'POST',
        url: `/api/document/${world.documentId}/budget`,
        payload: {
          type: 'SUM_BUDGET',
          name: `Koond ${randomUUID().slice(0, 6)}`,
          description: '',
          resourceStatusId: IN_PREPARATION,
          sumBudgetComponentIds: [first, second],
        },
      }),
    );
    await reportCaughtUp();
    const report = await reportOf(sum, { componentColumns: true, basePeriod: { start: '2026-02-01', duration: 11 } }, world.reader.client);
    expect(report.columns.map((column) => column.key)).toEqual(['base', `component:${first}`, `component:${second}`]);
    expect(report.total.sums).toEqual({ base: '1.5', [`component:${first}`]: '1.5', [`component:${second}`]: '0' });
    const whole = await reportOf(sum, { componentColumns: true }, world.reader.client);
    expect(whole.total.sums).toEqual({ base: '12.75', [`component:${first}`]: '12.5', [`component:${second}`]: '0.25' });
  });
});

describe('report as of a past moment', () => {
  it('answers the totals as they stood between edits, deletions and promotions', async () => {
    const budgetId = await world.budget();
    const place = `/api/budget/${budgetId}/sub-budget/${world.education}`;
    const add = async (name: string, amount: string) =>
      created(await world.editor.client.request({ method: 'POST', url: `${place}/record`, payload: { name, amount, classifiers: { konto: '4500' } } }));
    const first = await add('Esimene', '100');
    const second = await add('Teine', '50.5');
    await reportCaughtUp();
    const moment = async () => {
      const at = new Date().toISOString();
      await new Promise((resolve) => setTimeout(resolve, 15));
      return at;
    };
    const afterCreation = await moment();
    const edited = await world.editor.client.request({ method: 'PUT', url: `${place}/record/${first}`, payload: { name: 'Esimene', amount: '120' } });
    expect(edited.statusCode, edited.body).toBe(200);
    await world.editor.client.request({ method: 'POST', url: `${place}/record/${second}/promote` });
    await reportCaughtUp();
    const afterEdit = await moment();
    const removed = await world.editor.client.request({ method: 'DELETE', url: `${place}/record/${second}` });
    expect(removed.statusCode).toBe(200);
    await add('Kolmas', '7');
    const position = (await world.editor.client.request({ method: 'PUT', url: `${place}/record/${first}`, payload: { name: 'Esimene', amount: '1' } })).json()
      .position as string;

    const now = await reportOf(budgetId, { after: position });
    expect(now.total.sums.base).toBe('8');
    expect((await reportOf(budgetId, { asOf: afterCreation })).total.sums.base).toBe('150.5');
    const then = await reportOf(budgetId, { asOf: afterEdit });
    expect(then.total.sums.base).toBe('170.5');
    expect(then.rows.map((row) => row.key)).toContain(`s:${world.education}/r:${second}`);
    // A comparison column of the same budget at an earlier moment: what changed since.
    const since = await reportOf(budgetId, {
      comparisons: [{ key: 'vote', budgetId, copy: true, asOf: afterCreation }],
      calcColumns: [{ id: 'change', firstOperand: 'base', secondOperand: 'vote', operation: 'minus' }],
    });
    expect(since.total.sums).toEqual({ base: '8', vote: '150.5', change: '-142.5' });
    expect((await reportOf(budgetId, { asOf: '2000-01-01T00:00:00Z' })).total.sums.base).toBe('0');
    // Months as they stood: a split changed since counts with its old months in a period column.
    const split = (first: string) => [first, ...Array(11).fill('1')];
    const url = `${place}/record/${first}`;
    expect(
      (await world.editor.client.request({ method: 'PUT', url, payload: { name: 'Esimene', amount: '14', factors: { months: split('3') } } })).statusCode,
    ).toBe(200);
    await reportCaughtUp();
    const beforeSecondSplit = await moment();
    const changed = await world.editor.client.request({ method: 'PUT', url, payload: { name: 'Esimene', amount: '111', factors: { months: split('100') } } });
    expect(changed.statusCode, changed.body).toBe(200);
    await reportCaughtUp();
    const january = { basePeriod: { start: '2026-01-01', duration: 1 } };
    expect((await reportOf(budgetId, january)).total.sums.base).toBe('100');
    expect((await reportOf(budgetId, { ...january, asOf: beforeSecondSplit, expansion: 'quarterly' })).total.sums).toEqual({ base: '3', 'base:2026-01': '3' });
  });
});
