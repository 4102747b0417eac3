import {
  CLASSIFIER_CODE_LENGTH,
  CONTROL_CHARACTERS_MESSAGE,
  type CodeSettings,
  codeTypePattern,
  type GroupedByRef,
  type ImportRowError,
  isMultiLineText,
  isSingleLineText,
  LIMITS,
} from '@eelarve/shared';
import type { ClassifierItemData } from './events';

/**
 * Item rules shared by the item form, bulk edit and import (spec 2, section 5, Classifier item).
 * Codes compare case-insensitively, like the grouping references of an import.
 */
export const codeKey = (code: string) => code.trim().toLowerCase();

/** An item of a grouping classifier, as a grouped item may reference it. */
export interface GroupingItem {
  id: string;
  code: string;
  unselectable: boolean;
}

/** A grouping classifier of the classifier whose items are checked, with its items (from the read models). */
export interface GroupingContext {
  classifierId: string;
  fieldName: string;
  required: boolean;
  items: GroupingItem[];
}

export interface GroupingIndex {
  byClassifier: Map<string, { context: GroupingContext; byId: Map<string, GroupingItem>; byCode: Map<string, GroupingItem> }>;
}

export function indexGroupings(contexts: readonly GroupingContext[]): GroupingIndex {
  const byClassifier: GroupingIndex['byClassifier'] = new Map();
  for (const context of contexts) {
    const byId = new Map<string, GroupingItem>();
    const byCode = new Map<string, GroupingItem>();
    for (const item of context.items) {
      byId.set(item.id, item);
      byCode.set(codeKey(item.code), item);
    }
    byClassifier.set(context.classifierId, { context, byId, byCode });
  }
  return { byClassifier };
}

/** null when the code fits the type pattern and the length bounds; else the message. */
export function codeProblem(code: string, settings: CodeSettings, pattern = codeTypePattern(settings.typeName)): string | null {
  if (code.length < settings.minLength) return 'validation.minLength';
  if (code.length > settings.maxLength) return 'validation.maxLength';
  if (!pattern.test(code)) return 'codeTypeError';
  return null;
}

/** Problems of the grouping references of one item: unknown classifier or item, unselectable item, a required one missing. */
export function groupingProblems(groupedBy: readonly GroupedByRef[], index: GroupingIndex): ImportRowError[] {
  const errors: ImportRowError[] = [];
  const seen = new Set<string>();
  for (const ref of groupedBy) {
    const grouping = index.byClassifier.get(ref.classifierId);
    if (!grouping || seen.has(ref.classifierId)) {
      errors.push({ field: ref.classifierId, message: 'invalidGrouping' });
      continue;
    }
    seen.add(ref.classifierId);
    const item = grouping.byId.get(ref.itemId);
    if (!item) errors.push({ field: grouping.context.fieldName, message: 'referenceItemNotFound' });
    else if (item.unselectable) errors.push({ field: grouping.context.fieldName, message: 'referenceItemUnselectable' });
  }
  for (const { context } of index.byClassifier.values()) {
    if (context.required && !seen.has(context.classifierId)) errors.push({ field: context.fieldName, message: 'mandatoryClassifier' });
  }
  return errors;
}

// ---- import -------------------------------------------------------------------

/** The columns of an import file and its template, in order; one column per grouping classifier (its fieldName). */
export function importColumns(itemCanChangeSign: boolean, groupings: readonly GroupingContext[]): string[] {
  return ['code', 'name', 'description', 'unselectable', ...(itemCanChangeSign ? ['sign'] : []), ...groupings.map((grouping) => grouping.fieldName)];
}

export type RawRow = Record<string, unknown>;

export interface ImportRowResult {
  row: number;
  values: RawRow;
  errors: ImportRowError[];
  item: Omit<ClassifierItemData, 'id'> | null;
}

const text = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null && 'text' in value) return String((value as { text: unknown }).text ?? '');
  if (typeof value === 'object' && value !== null && 'result' in value) return String((value as { result: unknown }).result ?? '');
  return String(value);
};

const TRUE = new Set(['true', '1', 'yes', 'jah', 'x']);
const FALSE = new Set(['false', '0', 'no', 'ei']);

function parseBoolean(value: unknown): boolean | null | 'invalid' {
  if (typeof value === 'boolean') return value;
  const normalised = text(value).trim().toLowerCase();
  if (normalised === '') return null;
  if (TRUE.has(normalised)) return true;
  if (FALSE.has(normalised)) return false;
  return 'invalid';
}

function parseSign(value: unknown): 1 | -1 | null | 'invalid' {
  const normalised = text(value).trim();
  if (normalised === '') return null;
  if (normalised === '1' || normalised === '+' || normalised === '+1') return 1;
  if (normalised === '-1' || normalised === '-') return -1;
  return 'invalid';
}

export interface ImportTarget {
  codeSettings: CodeSettings;
  itemCanChangeSign: boolean;
  /** Codes (codeKey) of the classifier's existing items. */
  existingCodes: ReadonlySet<string>;
  groupings: readonly GroupingContext[];
}

/**
 * Reads a grouping reference from a row: the column named by the grouping classifier's fieldName
 * (files), or by its id (API rows), or a `groupedBy` list / map of the API import.
 */
function groupingValue(row: RawRow, context: GroupingContext): unknown {
  const groupedBy = row.groupedBy;
  if (Array.isArray(groupedBy)) {
    const ref = groupedBy.find((entry) => entry && typeof entry === 'object' && (entry as { classifierId?: unknown }).classifierId === context.classifierId) as
      | { itemId?: unknown; code?: unknown }
      | undefined;
    if (ref) return ref.code !== undefined ? { code: ref.code } : { itemId: ref.itemId };
  } else if (groupedBy && typeof groupedBy === 'object') {
    const map = groupedBy as Record<string, unknown>;
    if (map[context.classifierId] !== undefined) return map[context.classifierId];
    if (map[context.fieldName] !== undefined) return map[context.fieldName];
  }
  const direct = row[context.fieldName] ?? row[context.classifierId];
  return direct;
}

/**
 * Checks every row of an import (spec 2, section 5): code required, trimmed, within the length
 * bounds, matching the type pattern, unique in the file (`unique`) and not existing
 * (`uniqueCode`); name 1 to 256; description up to 4096; unselectable a required boolean; sign
 * (when signs may change) required, 1, +, -1 or -; each grouping reference case-insensitive,
 * required when the grouping classifier is required, naming an existing selectable item.
 * No per-row I/O: everything it needs is in `target`.
 */
export function validateImportRows(rows: readonly RawRow[], target: ImportTarget, firstRowNumber = 1): ImportRowResult[] {
  const pattern = codeTypePattern(target.codeSettings.typeName);
  const index = indexGroupings(target.groupings);
  const results: ImportRowResult[] = rows.map((row, position) => {
    const errors: ImportRowError[] = [];
    const code = text(row.code).trim();
    if (code === '') errors.push({ field: 'code', message: 'validation.required' });
    else {
      const problem = codeProblem(code, target.codeSettings, pattern);
      if (problem) errors.push({ field: 'code', message: problem });
      else if (target.existingCodes.has(codeKey(code))) errors.push({ field: 'code', message: 'uniqueCode' });
    }
    const name = text(row.name).trim();
    if (name === '') errors.push({ field: 'name', message: 'validation.required' });
    else if (name.length > LIMITS.text) errors.push({ field: 'name', message: 'validation.maxLength' });
    else if (!isSingleLineText(name)) errors.push({ field: 'name', message: CONTROL_CHARACTERS_MESSAGE });
    const description = text(row.description).trim();
    if (description.length > LIMITS.textArea) errors.push({ field: 'description', message: 'validation.maxLength' });
    else if (!isMultiLineText(description)) errors.push({ field: 'description', message: CONTROL_CHARACTERS_MESSAGE });
    const unselectable = parseBoolean(row.unselectable);
    if (unselectable === null) errors.push({ field: 'unselectable', message: 'validation.required' });
    else if (unselectable === 'invalid') errors.push({ field: 'unselectable', message: 'validation.format' });
    let sign: 1 | -1 | null = null;
    if (target.itemCanChangeSign) {
      const parsed = parseSign(row.sign);
      if (parsed === null) errors.push({ field: 'sign', message: 'validation.required' });
      else if (parsed === 'invalid') errors.push({ field: 'sign', message: 'validation.format' });
      else sign = parsed;
    }
    const groupedBy: GroupedByRef[] = [];
    for (const { context, byId, byCode } of index.byClassifier.values()) {
      const value = groupingValue(row, context);
      let item: GroupingItem | undefined;
      if (value && typeof value === 'object' && 'itemId' in value) item = byId.get(String((value as { itemId: unknown }).itemId));
      else {
        const reference = value && typeof value === 'object' && 'code' in value ? text((value as { code: unknown }).code) : text(value);
        if (reference.trim() === '') {
          if (context.required) errors.push({ field: context.fieldName, message: 'validation.required' });
          continue;
        }
        item = byCode.get(codeKey(reference));
      }
      if (!item) errors.push({ field: context.fieldName, message: 'referenceItemNotFound' });
      else if (item.unselectable) errors.push({ field: context.fieldName, message: 'referenceItemUnselectable' });
      else groupedBy.push({ classifierId: context.classifierId, itemId: item.id });
    }
    const valid = errors.length === 0;
    return {
      row: firstRowNumber + position,
      values: row,
      errors,
      item: valid ? { code, name, description, sign, unselectable: unselectable === true, groupedBy } : null,
    };
  });
  // Unique in the file: every row of a duplicated code is marked.
  const seen = new Map<string, number>();
  rows.forEach((row) => {
    const code = text(row.code).trim();
    if (code === '') return;
    const key = codeKey(code);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  });
  results.forEach((result, position) => {
    const code = text(rows[position]!.code).trim();
    if (code !== '' && (seen.get(codeKey(code)) ?? 0) > 1) {
      result.errors.push({ field: 'code', message: 'unique' });
      result.item = null;
    }
  });
  return results;
}

export const CODE_LENGTH_BOUNDS = CLASSIFIER_CODE_LENGTH;
