import { type Classifier, type ClassifierItem, LIMITS, type Scheme, type SubBudget, type SubBudgetImportRow } from '@eelarve/shared';
import { cellText } from '../../components/spreadsheet';

/** Pure helpers of the schemes tab: classifier columns, values, import rows and export rows. */

/** Spec 2, section 9: preselection checkbox lists are at most 250 px high, 30 px per row. */
export const PRESELECTION_LIST_MAX_PX = 250;
export const PRESELECTION_ROW_PX = 30;
/** Spec 2, section 9: the text-field maximum (import names are cut to it). */
export const TEXT_MAX = LIMITS.text;

export interface SchemeColumn {
  classifierId: string;
  type: 'MAIN' | 'SECONDARY';
  fieldName: string;
  name: string;
}

/** The scheme's classifiers as columns: main ones first, in the scheme's order. */
export function schemeColumns(scheme: Pick<Scheme, 'classifierList'> | undefined, classifiers: readonly Classifier[]): SchemeColumn[] {
  if (!scheme) return [];
  const byId = new Map(classifiers.map((classifier) => [classifier.id, classifier]));
  const columns = scheme.classifierList.map((entry) => {
    const classifier = byId.get(entry.classifierId);
    return {
      classifierId: entry.classifierId,
      type: entry.type,
      fieldName: classifier?.fieldName ?? entry.classifierId,
      name: classifier?.name ?? entry.classifierId,
    };
  });
  return [...columns.filter((column) => column.type === 'MAIN'), ...columns.filter((column) => column.type === 'SECONDARY')];
}

/** A sub-budget's value of a classifier: its map is keyed by classifier id (or field name). */
export function classifierValue(subBudget: Pick<SubBudget, 'classifiers'>, column: Pick<SchemeColumn, 'classifierId' | 'fieldName'>): string {
  return subBudget.classifiers[column.classifierId] ?? subBudget.classifiers[column.fieldName] ?? '';
}

/** The key of a classifier value combination (spec 2, section 5: unique within a scheme). */
export function combinationKey(columns: readonly SchemeColumn[], values: Record<string, string | null | undefined>): string {
  return columns.map((column) => (values[column.classifierId] ?? '').trim().toLowerCase()).join('\u0001');
}

/** "code – name" of an item, or the bare code when the item is unknown. */
export function itemLabel(items: ReadonlyMap<string, ClassifierItem>, classifierId: string, code: string): string {
  if (!code) return '';
  const item = items.get(`${classifierId}\u0001${code}`);
  return item ? `${item.code} – ${item.name}` : code;
}

export function itemIndex(list: readonly ClassifierItem[]): Map<string, ClassifierItem> {
  return new Map(list.map((item) => [`${item.classifierId}\u0001${item.code}`, item]));
}

/** Spec 2, section 5: with 3 or more values the first two are shown, then an ellipsis. */
export function shortList(values: readonly string[]): string {
  return values.length >= 3 ? `${values.slice(0, 2).join(', ')}, …` : values.join(', ');
}

/** The classifiers (ids, or technical names when not in the scheme) that have preselections in any of `rows`, in order of appearance. */
export function preselectionKeys(rows: ReadonlyArray<Pick<SubBudgetImportRow, 'preselections'>>): string[] {
  const keys = new Set<string>();
  for (const row of rows) for (const [key, codes] of Object.entries(row.preselections)) if (codes.length > 0) keys.add(key);
  return [...keys];
}

// ---- export and import --------------------------------------------------------------------

export const NAME_HEADER = 'name';
export const ID_HEADER = 'id';
export const PRESELECTION_PREFIX = 'preselection:';

/** The header row of an export (and of an import file): id, name, a column per classifier and its preselections. */
export function exportHeaders(columns: readonly SchemeColumn[], preselectionColumns: readonly SchemeColumn[]): string[] {
  return [
    ID_HEADER,
    NAME_HEADER,
    ...columns.map((column) => column.fieldName),
    ...preselectionColumns.map((column) => `${PRESELECTION_PREFIX}${column.fieldName}`),
  ];
}

export function exportRows(
  subBudgets: readonly SubBudget[],
  columns: readonly SchemeColumn[],
  preselectionColumns: readonly SchemeColumn[],
  preselections: ReadonlyMap<string, Record<string, string[]>>,
): string[][] {
  return subBudgets.map((subBudget) => [
    subBudget.id,
    subBudget.name,
    ...columns.map((column) => classifierValue(subBudget, column)),
    ...preselectionColumns.map((column) => (preselections.get(subBudget.id)?.[column.classifierId] ?? []).join(', ')),
  ]);
}

/** One parsed import row and the problems found in it (message keys of `schemes.importError.*`). */
export interface ParsedImportRow {
  /** 1-based line of the file (the header is line 1). */
  line: number;
  row: SubBudgetImportRow;
  errors: string[];
}

const splitCodes = (text: string) =>
  text
    .split(/[,;]/)
    .map((code) => code.trim())
    .filter(Boolean);

/**
 * Table (header + lines) to import rows, checked as far as the browser can: names, main values,
 * duplicate combinations in the file, existing sub-budgets (sub-budget import) or missing ones
 * (preselection import). The server checks items again and answers row errors.
 */
export function parseImportTable(
  table: readonly (readonly unknown[])[],
  columns: readonly SchemeColumn[],
  importType: 'SUB_BUDGETS_WITH_PRESELECTIONS' | 'PRESELECTIONS_ONLY',
  existing: readonly SubBudget[],
): ParsedImportRow[] {
  const [header = [], ...lines] = table;
  const headers = header.map((cell) => cellText(cell).toLowerCase());
  const indexOf = (name: string) => headers.indexOf(name.toLowerCase());
  const existingKeys = new Map(
    existing.map((subBudget) => [
      combinationKey(columns, Object.fromEntries(columns.map((column) => [column.classifierId, classifierValue(subBudget, column)]))),
      subBudget.id,
    ]),
  );
  const existingIds = new Set(existing.map((subBudget) => subBudget.id));
  const seen = new Set<string>();
  const result: ParsedImportRow[] = [];
  lines.forEach((line, index) => {
    const text = (column: number) => (column >= 0 ? cellText(line[column]) : '');
    if (line.every((cell) => cellText(cell) === '')) return;
    const classifiers: Record<string, string | null> = {};
    const preselections: Record<string, string[]> = {};
    for (const column of columns) {
      const value = text(indexOf(column.fieldName));
      classifiers[column.classifierId] = value === '' ? null : value;
    }
    headers.forEach((name, position) => {
      if (!name.startsWith(PRESELECTION_PREFIX)) return;
      const fieldName = name.slice(PRESELECTION_PREFIX.length);
      const column = columns.find((candidate) => candidate.fieldName.toLowerCase() === fieldName);
      const codes = splitCodes(text(position));
      if (codes.length > 0) preselections[column?.classifierId ?? fieldName] = codes;
    });
    const id = text(indexOf(ID_HEADER));
    const row: SubBudgetImportRow = { name: text(indexOf(NAME_HEADER)).slice(0, TEXT_MAX), classifiers, preselections, ...(id ? { id } : {}) };
    const errors: string[] = [];
    const missingMain = columns.some((column) => column.type === 'MAIN' && !classifiers[column.classifierId]);
    const key = combinationKey(columns, classifiers);
    if (importType === 'SUB_BUDGETS_WITH_PRESELECTIONS') {
      if (!row.name) errors.push('nameRequired');
      if (missingMain) errors.push('mainClassifierNotSelected');
      if (!missingMain && seen.has(key)) errors.push('classifierValuesMustBeUnique');
      if (!missingMain && existingKeys.has(key)) errors.push('subBudgetExists');
    } else {
      const found = (id && existingIds.has(id)) || existingKeys.has(key);
      if (!found) errors.push('subBudgetNotFound');
      else if (seen.has(key)) errors.push('classifierValuesMustBeUnique');
    }
    seen.add(key);
    result.push({ line: index + 2, row, errors });
  });
  return result;
}

/** Moved to the shared spreadsheet helpers (the records import reads files too). */
