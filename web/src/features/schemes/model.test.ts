import type { SubBudget } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../components/spreadsheet';
import { parseImportTable, preselectionKeys, type SchemeColumn, shortList } from './model';
import { draftOf, EMPTY_SCHEME_DRAFT, SchemeEditStore } from './scheme-edit';
import { resolveBudgetScheme } from './useBudgetScheme';

const columns: SchemeColumn[] = [
  { classifierId: 'c-main', type: 'MAIN', fieldName: 'tegevusala', name: 'Tegevusala' },
  { classifierId: 'c-second', type: 'SECONDARY', fieldName: 'allikas', name: 'Allikas' },
];
const existing = [{ id: 's1', name: 'Olemas', classifiers: { 'c-main': '01' } }] as unknown as SubBudget[];

describe('schemes: import rows', () => {
  it('checks names, main values, duplicates in the file and existing sub-budgets', () => {
    const rows = parseImportTable(
      [
        ['name', 'Tegevusala', 'allikas', 'preselection:allikas'],
        ['Uus', '02', 'A', 'A, B'],
        ['Kordus', '02', 'A', ''],
        ['', '03', '', ''],
        ['Ilma', '', 'B', ''],
        ['Olemas', '01', '', ''],
        ['', '', '', ''],
      ],
      columns,
      'SUB_BUDGETS_WITH_PRESELECTIONS',
      existing,
    );
    expect(rows.map((row) => [row.line, row.errors])).toEqual([
      [2, []],
      [3, ['classifierValuesMustBeUnique']],
      [4, ['nameRequired']],
      [5, ['mainClassifierNotSelected']],
      [6, ['subBudgetExists']],
    ]);
    expect(rows[0]?.row).toEqual({ name: 'Uus', classifiers: { 'c-main': '02', 'c-second': 'A' }, preselections: { 'c-second': ['A', 'B'] } });
  });

  it('needs the sub-budget to exist for a preselection import', () => {
    const rows = parseImportTable(
      [
        ['tegevusala', 'allikas'],
        ['01', ''],
        ['09', ''],
      ],
      columns,
      'PRESELECTIONS_ONLY',
      existing,
    );
    expect(rows.map((row) => row.errors)).toEqual([[], ['subBudgetNotFound']]);
  });

  it('reads CSV with either separator and quotes', () => {
    expect(parseCsv('name;a\r\n"x;""y""";1\n')).toEqual([
      ['name', 'a'],
      ['x;"y"', '1'],
    ]);
    expect(parseCsv('a,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('shortens three or more values with an ellipsis', () => {
    expect(shortList(['a', 'b'])).toBe('a, b');
    expect(shortList(['a', 'b', 'c'])).toBe('a, b, …');
  });

  it('lists the classifiers with preselections once each, in order of appearance (a preview column each)', () => {
    const rows: Array<{ preselections: Record<string, string[]> }> = [
      { preselections: { 'c-second': ['A'], other: [] } },
      { preselections: { extra: ['x', 'y', 'z'], 'c-second': ['B'] } },
    ];
    expect(preselectionKeys(rows)).toEqual(['c-second', 'extra']);
    expect(preselectionKeys([])).toEqual([]);
  });
});

describe('schemes: edit session and budget scheme', () => {
  it('derives a new scheme’s technical name until one is typed, and knows when the row changed', () => {
    const store = new SchemeEditStore();
    store.start('new-1', 'new', EMPTY_SCHEME_DRAFT);
    store.update({ name: 'Kulud 2027 Ä' });
    expect(store.current?.draft.fieldName).toBe('kulud_2027_');
    expect(store.current?.changed).toBe(true);
    store.update({ fieldName: 'oma' });
    store.update({ name: 'Muu' });
    expect(store.current?.draft.fieldName).toBe('oma');

    const row = { name: 'A', fieldName: 'a', description: '', main: ['x'], secondary: [] };
    store.start('s1', 'editing', draftOf(row));
    store.update({ name: 'A ' });
    expect(store.current?.changed).toBe(false);
    expect(store.current?.draft.fieldName).toBe('a');
  });

  it('redirects to the remembered scheme of the document, else the first', () => {
    const schemes = [{ id: 'a' }, { id: 'b' }];
    expect(resolveBudgetScheme(schemes, 'b', 'a')).toEqual({ schemeId: 'b', redirect: false });
    expect(resolveBudgetScheme(schemes, undefined, 'b')).toEqual({ schemeId: 'b', redirect: true });
    expect(resolveBudgetScheme(schemes, 'zzz', 'other')).toEqual({ schemeId: 'a', redirect: true });
    expect(resolveBudgetScheme([], undefined, null)).toEqual({ schemeId: null, redirect: false });
  });
});
