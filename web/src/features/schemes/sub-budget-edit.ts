import { type ClassifierItem, type SubBudget, subBudgetInputSchema } from '@eelarve/shared';
import { errorCodeOf, isApiError } from '../../api';
import { type InlineEditSession, InlineEditStore } from '../../grid/inline-edit';
import type { DraftParseResult } from '../../grid/useInlineRowEditing';
import type { SubBudgetPayload } from './api/requests';
import { classifierValue, type SchemeColumn } from './model';

/**
 * Row states of the sub-budgets table (spec 2, section 4): viewing, editing, new, duplicating,
 * highlighted, kept by the shared inline editing of `grid/` as in the schemes table. Here: the rows,
 * their draft (the name and a value per scheme classifier), when it counts as changed, its check
 * and request body, and the fields a server refusal belongs to.
 */
export interface SubBudgetRow {
  /** Grid row id: the sub-budget id, or `new-<n>` for the unsaved row. */
  key: string;
  id: string | null;
  name: string;
  /** Classifier id → item code. */
  classifiers: Record<string, string>;
  hasRecords: boolean;
  /** The saved sub-budget (null for the unsaved row). */
  subBudget: SubBudget | null;
}

/** The name (`name`) and the item code of each scheme classifier (keyed by classifier id; '' for none). */
export type SubBudgetDraft = Record<string, string>;
export type SubBudgetEditSession = InlineEditSession<SubBudgetDraft>;

export const NAME_FIELD = 'name';
/** Not a draft value: where a refusal of the whole classifier value combination is kept. */
export const COMBINATION_FIELD = 'combination';

export function rowFromSubBudget(subBudget: SubBudget, columns: readonly SchemeColumn[]): SubBudgetRow {
  return {
    key: subBudget.id,
    id: subBudget.id,
    name: subBudget.name,
    classifiers: Object.fromEntries(columns.map((column) => [column.classifierId, classifierValue(subBudget, column)])),
    hasRecords: subBudget.hasRecords,
    subBudget,
  };
}

/** The draft of a row (a duplicate gets `name` instead of the row's). */
export function draftOf(row: Pick<SubBudgetRow, 'name' | 'classifiers'>, columns: readonly SchemeColumn[], name = row.name): SubBudgetDraft {
  return { ...Object.fromEntries(columns.map((column) => [column.classifierId, row.classifiers[column.classifierId] ?? ''])), [NAME_FIELD]: name };
}

/** A draft counts as changed when the name or any classifier value differs (ignoring surrounding spaces). */
export function subBudgetDraftChanged(original: SubBudgetDraft, draft: SubBudgetDraft): boolean {
  return Object.keys(original).some((field) => (original[field] ?? '').trim() !== (draft[field] ?? '').trim());
}

/**
 * The request body of a draft, checked with the shared schema; the scheme's main classifiers need a
 * value (spec 2, section 5). Refusals are reported on `name` or the classifier's id.
 */
export function parseSubBudgetDraft(draft: SubBudgetDraft, columns: readonly SchemeColumn[]): DraftParseResult<SubBudgetPayload> {
  const classifiers: Record<string, string> = {};
  for (const column of columns) {
    const code = (draft[column.classifierId] ?? '').trim();
    if (code !== '') classifiers[column.classifierId] = code;
  }
  const issues: Array<{ path: PropertyKey[]; message: string }> = [];
  const parsed = subBudgetInputSchema.safeParse({ name: draft[NAME_FIELD] ?? '', classifiers });
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      issues.push({ path: issue.path[0] === 'classifiers' ? issue.path.slice(1) : [...issue.path], message: issue.message });
  }
  for (const column of columns)
    if (column.type === 'MAIN' && !classifiers[column.classifierId]) issues.push({ path: [column.classifierId], message: 'validation.required' });
  if (issues.length > 0 || !parsed.success) return { success: false, error: { issues } };
  return { success: true, data: parsed.data };
}

/**
 * The fields a server refusal of a save belongs to (their value is the error code, or a validation
 * key): a repeated combination on the combination, a missing or wrong value on its classifier.
 */
export function serverInvalid(error: unknown, columns: readonly SchemeColumn[]): Record<string, string> {
  const code = errorCodeOf(error);
  const invalid: Record<string, string> = {};
  const issues = isApiError(error) ? error.fieldIssues : [];
  for (const issue of issues) {
    const path = issue.path.replace(/^body\./, '');
    const field = path === NAME_FIELD ? NAME_FIELD : path.startsWith('classifiers.') ? path.slice('classifiers.'.length) : null;
    if (field === null || (field !== NAME_FIELD && !columns.some((column) => column.classifierId === field))) continue;
    invalid[field] ??= code === 'SCHEMA_VALIDATION_ERROR' ? issue.message : code;
  }
  if (Object.keys(invalid).length > 0) return invalid;
  switch (code) {
    case 'SUB_BUDGET_NOT_UNIQUE':
    case 'SUB_BUDGET_HAS_RECORDS':
    case 'MAIN_CLASSIFIER_NOT_SELECTED':
    case 'SUB_BUDGET_CLASSIFIER_VALUE_INVALID':
      return { [COMBINATION_FIELD]: code };
    default:
      return {};
  }
}

/** The selectable items of each classifier, by code (the options of the row's selects). */
export function selectableItems(items: readonly ClassifierItem[]): Map<string, ClassifierItem[]> {
  const byClassifier = new Map<string, ClassifierItem[]>();
  for (const item of items) {
    if (item.unselectable) continue;
    const list = byClassifier.get(item.classifierId) ?? [];
    list.push(item);
    byClassifier.set(item.classifierId, list);
  }
  for (const list of byClassifier.values()) list.sort((a, b) => a.code.localeCompare(b.code));
  return byClassifier;
}

/** The sub-budgets table's edit store. */
export class SubBudgetEditStore extends InlineEditStore<SubBudgetDraft> {
  constructor() {
    super({ changed: subBudgetDraftChanged });
  }
}
