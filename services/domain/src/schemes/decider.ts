import {
  type ClassifierPreselections,
  DomainError,
  fieldError,
  fieldErrors,
  type SubBudgetImportRowError,
  LIMITS,
  type SchemeClassifier,
  type SubBudgetImportRow,
} from '@eelarve/shared';
import type { Decider } from '../decider';
import type { NewSubBudget, SchemeDefinition, SchemeEvent } from './events';

/**
 * The schemes and sub-budgets of one document (see events.ts for why one stream). Facts owned by
 * other aggregates (the document's classifiers and their items, its master classifier, which
 * sub-budgets have records) reach the decider with the command; the gateway reads them.
 */
export interface SubBudgetState {
  name: string;
  classifiers: Record<string, string>;
  preselections: ClassifierPreselections;
}

export interface SchemeState extends SchemeDefinition {
  subBudgets: Map<string, SubBudgetState>;
  /** Combination key → sub-budget id. */
  combinations: Map<string, string>;
}

export interface DocumentSchemesState {
  organizationId: string | null;
  schemes: Map<string, SchemeState>;
  /** `${budgetId}:${schemeId}` → pinned sub-budget ids. */
  pins: Map<string, string[]>;
}

/** The document's classifiers as the commands need them: field name and item code → selectable. */
export interface ClassifierCatalogue {
  masterClassifierId: string | null;
  classifiers: Record<string, { fieldName: string; items: Record<string, { selectable: boolean }> }>;
}

export type SchemeCommand =
  | ({ type: 'CreateScheme'; documentId: string; organizationId: string; schemeId: string; documentClassifierIds: string[] } & Omit<
      SchemeDefinition,
      'displayOrder'
    > & {
        displayOrder?: number;
      })
  | ({ type: 'UpdateScheme'; documentId: string; schemeId: string; documentClassifierIds: string[] } & Omit<SchemeDefinition, 'displayOrder'> & {
        displayOrder?: number;
      })
  | { type: 'DeleteScheme'; documentId: string; schemeId: string }
  | { type: 'ReorderSchemes'; documentId: string; list: { id: string; displayOrder: number }[] }
  | {
      type: 'CreateSubBudget';
      documentId: string;
      schemeId: string;
      subBudgetId: string;
      name: string;
      classifiers: Record<string, string>;
      catalogue: ClassifierCatalogue;
    }
  | {
      type: 'UpdateSubBudget';
      documentId: string;
      schemeId: string;
      subBudgetId: string;
      name: string;
      classifiers: Record<string, string>;
      catalogue: ClassifierCatalogue;
      hasRecords: boolean;
    }
  | { type: 'DeleteSubBudgets'; documentId: string; schemeId: string; subBudgetIds: string[]; withRecords: string[] }
  | {
      type: 'SetClassifierPreselections';
      documentId: string;
      schemeId: string;
      subBudgetId: string;
      preselections: ClassifierPreselections;
      catalogue: ClassifierCatalogue;
    }
  | { type: 'PinSubBudgets'; documentId: string; schemeId: string; budgetId: string; pinned: string[]; withRecords: string[]; confirmed: boolean }
  | {
      type: 'ImportSubBudgets';
      documentId: string;
      schemeId: string;
      importType: 'SUB_BUDGETS_WITH_PRESELECTIONS' | 'PRESELECTIONS_ONLY';
      rows: SubBudgetImportRow[];
      /** One new id per row (used for rows that create a sub-budget). */
      newIds: string[];
      catalogue: ClassifierCatalogue;
    }
  /** Schemes of another document with their sub-budgets, classifier ids already translated (see copy.ts). */
  | { type: 'CopySchemes'; documentId: string; organizationId: string; schemes: (SchemeDefinition & { schemeId: string; subBudgets: NewSubBudget[] })[] };

export const documentSchemesStream = (documentId: string) => `document-schemes-${documentId}`;

const normaliseName = (name: string) => name.trim().toLowerCase();

/** The identity of a sub-budget within its scheme: the value of every scheme classifier (or none). */
export function combinationKey(classifierList: readonly SchemeClassifier[], classifiers: Record<string, string>): string {
  return JSON.stringify(
    classifierList
      .map((entry) => entry.classifierId)
      .sort()
      .map((id) => [id, classifiers[id] ?? null]),
  );
}

function schemeOf(state: DocumentSchemesState, schemeId: string): SchemeState {
  const scheme = state.schemes.get(schemeId);
  if (!scheme) throw new DomainError('SCHEME_NOT_FOUND');
  return scheme;
}

function assertUniqueNames(state: DocumentSchemesState, schemeId: string, name: string, fieldName: string): void {
  for (const [id, scheme] of state.schemes) {
    if (id === schemeId) continue;
    if (normaliseName(scheme.name) === normaliseName(name)) throw fieldError('SCHEME_NAME_NOT_UNIQUE', 'name', 'nameNotUnique');
    if (normaliseName(scheme.fieldName) === normaliseName(fieldName)) throw fieldError('SCHEME_FIELD_NAME_NOT_UNIQUE', 'fieldName', 'fieldNameNotUnique');
  }
}

function assertClassifiersOfDocument(classifierList: readonly SchemeClassifier[], documentClassifierIds: readonly string[]): void {
  const known = new Set(documentClassifierIds);
  const missing = classifierList.findIndex((entry) => !known.has(entry.classifierId));
  if (missing >= 0)
    throw fieldError('CLASSIFIER_MISSING', `classifierList.${missing}.classifierId`, 'classifierMissing', 'classifier is not one of the document');
}

const sameClassifierList = (a: readonly SchemeClassifier[], b: readonly SchemeClassifier[]) =>
  a.length === b.length && a.every((entry) => b.some((other) => other.classifierId === entry.classifierId && other.type === entry.type));

interface Issue {
  path: string;
  message: string;
}

/** The scheme can take sub-budgets at all; throws the scheme-level code. */
function assertSchemeUsable(scheme: SchemeState, catalogue: ClassifierCatalogue): void {
  if (!catalogue.masterClassifierId) throw new DomainError('DOCUMENT_MISSING_MASTER_CLASSIFIER');
  if (scheme.classifierList.length === 0) throw new DomainError('SCHEME_HAS_NO_CLASSIFIERS');
  if (scheme.classifierList.some((entry) => !catalogue.classifiers[entry.classifierId])) throw new DomainError('CLASSIFIER_MISSING');
}

/** Resolves the keys of a value map (classifier id or field name) to the scheme's classifier ids. */
function resolveValues(scheme: SchemeState, catalogue: ClassifierCatalogue, values: Record<string, string | null>, issues: Issue[]): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [key, raw] of Object.entries(values)) {
    const value = raw?.trim() ?? '';
    const entry =
      scheme.classifierList.find((candidate) => candidate.classifierId === key) ??
      scheme.classifierList.find((candidate) => catalogue.classifiers[candidate.classifierId]?.fieldName.toLowerCase() === key.toLowerCase());
    if (!entry) {
      if (value !== '') issues.push({ path: `classifiers.${key}`, message: 'classifierNotInScheme' });
      continue;
    }
    if (value !== '') resolved[entry.classifierId] = value;
  }
  return resolved;
}

function itemIssues(catalogue: ClassifierCatalogue, classifierId: string, code: string, path: string): Issue[] {
  const item = catalogue.classifiers[classifierId]?.items[code];
  if (!item) return [{ path, message: 'referenceItemNotFound' }];
  if (!item.selectable) return [{ path, message: 'referenceItemUnselectable' }];
  return [];
}

/** Main values present, every value an existing selectable item of its classifier. */
function valueIssues(scheme: SchemeState, catalogue: ClassifierCatalogue, values: Record<string, string>): Issue[] {
  const issues: Issue[] = [];
  for (const entry of scheme.classifierList) {
    const code = values[entry.classifierId];
    const path = `classifiers.${entry.classifierId}`;
    if (code === undefined) {
      if (entry.type === 'MAIN') issues.push({ path, message: 'mainClassifierNotSelected' });
      continue;
    }
    issues.push(...itemIssues(catalogue, entry.classifierId, code, path));
  }
  return issues;
}

function preselectionIssues(catalogue: ClassifierCatalogue, preselections: ClassifierPreselections): Issue[] {
  const issues: Issue[] = [];
  for (const [classifierId, codes] of Object.entries(preselections)) {
    if (!catalogue.classifiers[classifierId]) {
      issues.push({ path: `preselections.${classifierId}`, message: 'classifierMissing' });
      continue;
    }
    codes.forEach((code, index) => {
      issues.push(...itemIssues(catalogue, classifierId, code, `preselections.${classifierId}.${index}`));
    });
  }
  return issues;
}

/** Issues of a command's own fields, named as fields (the import's row errors stay relative to their row). */
const asFields = (issues: Issue[]) => issues.map((issue) => ({ field: issue.path, message: issue.message }));

/** The single-sub-budget commands answer with the code of the first broken rule. */
function throwFirst(issues: Issue[]): void {
  const first = issues[0];
  if (!first) return;
  const code = first.message === 'mainClassifierNotSelected' ? 'MAIN_CLASSIFIER_NOT_SELECTED' : 'SUB_BUDGET_CLASSIFIER_VALUE_INVALID';
  throw fieldErrors(code, asFields(issues), first.message);
}

const uniquePreselections = (preselections: ClassifierPreselections): ClassifierPreselections =>
  Object.fromEntries(Object.entries(preselections).map(([id, codes]) => [id, [...new Set(codes.map((code) => code.trim()))]]));

type Cmd<T extends SchemeCommand['type']> = Extract<SchemeCommand, { type: T }>;

function ref(state: DocumentSchemesState, documentId: string) {
  if (!state.organizationId) throw new DomainError('SCHEME_NOT_FOUND');
  return { documentId, organizationId: state.organizationId };
}

function createScheme(command: Cmd<'CreateScheme'>, state: DocumentSchemesState): SchemeEvent[] {
  if (state.schemes.has(command.schemeId)) throw new DomainError('CONCURRENT_MODIFICATION', 'scheme already exists');
  assertUniqueNames(state, command.schemeId, command.name, command.fieldName);
  assertClassifiersOfDocument(command.classifierList, command.documentClassifierIds);
  // After the last one, but never past the read model's integer column: at the maximum, ties sort by name.
  const displayOrder =
    command.displayOrder ?? Math.min(LIMITS.integerMax, Math.max(0, ...[...state.schemes.values()].map((scheme) => scheme.displayOrder)) + 1);
  const { documentId, organizationId, schemeId, name, fieldName, description, classifierList } = command;
  return [{ type: 'SchemeCreated', data: { documentId, organizationId, schemeId, name, fieldName, description, displayOrder, classifierList } }];
}

function copySchemes(command: Cmd<'CopySchemes'>, state: DocumentSchemesState): SchemeEvent[] {
  const { documentId, organizationId } = command;
  const events: SchemeEvent[] = [];
  for (const { subBudgets, schemeId, ...definition } of command.schemes) {
    if (state.schemes.has(schemeId)) throw new DomainError('CONCURRENT_MODIFICATION', 'scheme already exists');
    assertUniqueNames(state, schemeId, definition.name, definition.fieldName);
    events.push({ type: 'SchemeCreated', data: { documentId, organizationId, schemeId, ...definition } });
    if (subBudgets.length > 0) events.push({ type: 'SubBudgetsAdded', data: { documentId, organizationId, schemeId, subBudgets } });
  }
  return events;
}

function updateScheme(command: Cmd<'UpdateScheme'>, state: DocumentSchemesState): SchemeEvent[] {
  const scheme = schemeOf(state, command.schemeId);
  assertUniqueNames(state, command.schemeId, command.name, command.fieldName);
  assertClassifiersOfDocument(command.classifierList, command.documentClassifierIds);
  const classifiersChanged = !sameClassifierList(scheme.classifierList, command.classifierList);
  if (classifiersChanged && scheme.subBudgets.size > 0) throw new DomainError('SCHEME_HAS_SUB_BUDGETS');
  const displayOrder = command.displayOrder ?? scheme.displayOrder;
  const { schemeId, name, fieldName, description } = command;
  const classifierList = classifiersChanged ? command.classifierList : scheme.classifierList;
  if (
    !classifiersChanged &&
    scheme.name === name &&
    scheme.fieldName === fieldName &&
    scheme.description === description &&
    scheme.displayOrder === displayOrder
  )
    return [];
  return [{ type: 'SchemeUpdated', data: { ...ref(state, command.documentId), schemeId, name, fieldName, description, displayOrder, classifierList } }];
}

function deleteScheme(command: Cmd<'DeleteScheme'>, state: DocumentSchemesState): SchemeEvent[] {
  const scheme = schemeOf(state, command.schemeId);
  if (state.schemes.size === 1) throw new DomainError('LAST_SCHEME');
  if (scheme.subBudgets.size > 0) throw new DomainError('SCHEME_HAS_SUB_BUDGETS');
  return [{ type: 'SchemeDeleted', data: { ...ref(state, command.documentId), schemeId: command.schemeId } }];
}

function reorder(command: Cmd<'ReorderSchemes'>, state: DocumentSchemesState): SchemeEvent[] {
  for (const entry of command.list) schemeOf(state, entry.id);
  const changed = command.list.some((entry) => state.schemes.get(entry.id)?.displayOrder !== entry.displayOrder);
  if (!changed) return [];
  return [{ type: 'SchemesReordered', data: { ...ref(state, command.documentId), list: command.list.map(({ id, displayOrder }) => ({ id, displayOrder })) } }];
}

function createSubBudget(command: Cmd<'CreateSubBudget'>, state: DocumentSchemesState): SchemeEvent[] {
  const scheme = schemeOf(state, command.schemeId);
  if (scheme.subBudgets.has(command.subBudgetId)) throw new DomainError('CONCURRENT_MODIFICATION', 'sub-budget already exists');
  assertSchemeUsable(scheme, command.catalogue);
  const issues: Issue[] = [];
  const classifiers = resolveValues(scheme, command.catalogue, command.classifiers, issues);
  throwFirst([...issues, ...valueIssues(scheme, command.catalogue, classifiers)]);
  if (scheme.combinations.has(combinationKey(scheme.classifierList, classifiers)))
    throw new DomainError('SUB_BUDGET_NOT_UNIQUE', 'classifierValuesMustBeUnique');
  const subBudget: NewSubBudget = { subBudgetId: command.subBudgetId, name: command.name.trim(), classifiers, preselections: {} };
  return [{ type: 'SubBudgetsAdded', data: { ...ref(state, command.documentId), schemeId: command.schemeId, subBudgets: [subBudget] } }];
}

function subBudgetOf(scheme: SchemeState, subBudgetId: string): SubBudgetState {
  const subBudget = scheme.subBudgets.get(subBudgetId);
  if (!subBudget) throw new DomainError('SUB_BUDGET_NOT_FOUND');
  return subBudget;
}

function updateSubBudget(command: Cmd<'UpdateSubBudget'>, state: DocumentSchemesState): SchemeEvent[] {
  const scheme = schemeOf(state, command.schemeId);
  const current = subBudgetOf(scheme, command.subBudgetId);
  const issues: Issue[] = [];
  const classifiers = resolveValues(scheme, command.catalogue, command.classifiers, issues);
  const key = combinationKey(scheme.classifierList, classifiers);
  const valuesChanged = key !== combinationKey(scheme.classifierList, current.classifiers);
  if (valuesChanged) {
    assertSchemeUsable(scheme, command.catalogue);
    throwFirst([...issues, ...valueIssues(scheme, command.catalogue, classifiers)]);
    // Records carry the sub-budget's classifier values: those are fixed once there are records.
    if (command.hasRecords) throw new DomainError('SUB_BUDGET_HAS_RECORDS');
    const holder = scheme.combinations.get(key);
    if (holder && holder !== command.subBudgetId) throw new DomainError('SUB_BUDGET_NOT_UNIQUE', 'classifierValuesMustBeUnique');
  }
  const name = command.name.trim();
  if (!valuesChanged && name === current.name) return [];
  return [
    {
      type: 'SubBudgetUpdated',
      data: {
        ...ref(state, command.documentId),
        schemeId: command.schemeId,
        subBudgetId: command.subBudgetId,
        name,
        classifiers: valuesChanged ? classifiers : current.classifiers,
      },
    },
  ];
}

function deleteSubBudgets(command: Cmd<'DeleteSubBudgets'>, state: DocumentSchemesState): SchemeEvent[] {
  const scheme = schemeOf(state, command.schemeId);
  const ids = [...new Set(command.subBudgetIds)];
  for (const id of ids) subBudgetOf(scheme, id);
  if (ids.some((id) => command.withRecords.includes(id))) throw new DomainError('SUB_BUDGET_HAS_RECORDS');
  return [{ type: 'SubBudgetsDeleted', data: { ...ref(state, command.documentId), schemeId: command.schemeId, subBudgetIds: ids } }];
}

function setPreselections(command: Cmd<'SetClassifierPreselections'>, state: DocumentSchemesState): SchemeEvent[] {
  const scheme = schemeOf(state, command.schemeId);
  subBudgetOf(scheme, command.subBudgetId);
  const issues = preselectionIssues(command.catalogue, command.preselections);
  if (issues.length > 0) throw fieldErrors('SUB_BUDGET_CLASSIFIER_VALUE_INVALID', asFields(issues));
  const preselections = uniquePreselections(command.preselections);
  return [
    {
      type: 'ClassifierPreselectionsSet',
      data: { ...ref(state, command.documentId), schemeId: command.schemeId, list: [{ subBudgetId: command.subBudgetId, preselections }] },
    },
  ];
}

function pin(command: Cmd<'PinSubBudgets'>, state: DocumentSchemesState): SchemeEvent[] {
  const scheme = schemeOf(state, command.schemeId);
  const pinned = [...new Set(command.pinned)];
  for (const id of pinned) subBudgetOf(scheme, id);
  const before = state.pins.get(`${command.budgetId}:${command.schemeId}`) ?? [];
  const unpinned = before.filter((id) => !pinned.includes(id));
  // The screen asks before unpinning a sub-budget that has records (spec 2, Sub-budgets tab).
  if (!command.confirmed && unpinned.some((id) => command.withRecords.includes(id))) throw new DomainError('SUB_BUDGET_HAS_RECORDS');
  if (unpinned.length === 0 && pinned.length === before.length) return [];
  return [{ type: 'SubBudgetsPinned', data: { ...ref(state, command.documentId), schemeId: command.schemeId, budgetId: command.budgetId, pinned } }];
}

/**
 * Row by row (spec 2, section 5): every row's problems are collected; a file with any problem
 * imports nothing (SUB_BUDGET_IMPORT_INVALID with `details` = the rows' errors).
 */
function importSubBudgets(command: Cmd<'ImportSubBudgets'>, state: DocumentSchemesState): SchemeEvent[] {
  const scheme = schemeOf(state, command.schemeId);
  assertSchemeUsable(scheme, command.catalogue);
  const rowErrors: SubBudgetImportRowError[] = [];
  const seen = new Map<string, number>();
  const added: NewSubBudget[] = [];
  const preselected: { subBudgetId: string; preselections: ClassifierPreselections }[] = [];
  command.rows.forEach((row, index) => {
    const issues: Issue[] = [];
    const classifiers = resolveValues(scheme, command.catalogue, row.classifiers, issues);
    const key = combinationKey(scheme.classifierList, classifiers);
    const preselections = uniquePreselections(row.preselections);
    issues.push(...preselectionIssues(command.catalogue, preselections));
    if (seen.has(key)) issues.push({ path: 'classifiers', message: 'classifierValuesMustBeUnique' });
    else seen.set(key, index);
    if (command.importType === 'SUB_BUDGETS_WITH_PRESELECTIONS') {
      const name = row.name.trim().slice(0, LIMITS.text);
      if (name === '') issues.push({ path: 'name', message: 'validation.required' });
      issues.push(...valueIssues(scheme, command.catalogue, classifiers));
      if (scheme.combinations.has(key)) issues.push({ path: 'classifiers', message: 'subBudgetExists' });
      if (issues.length === 0) added.push({ subBudgetId: command.newIds[index]!, name, classifiers, preselections });
    } else {
      const subBudgetId = row.id && scheme.subBudgets.has(row.id) ? row.id : scheme.combinations.get(key);
      if (!subBudgetId) issues.push({ path: 'classifiers', message: 'subBudgetNotFound' });
      else if (issues.length === 0) preselected.push({ subBudgetId, preselections });
    }
    if (issues.length > 0) rowErrors.push({ row: index, errors: issues });
  });
  if (rowErrors.length > 0) throw new DomainError('SUB_BUDGET_IMPORT_INVALID', 'the file has errors; nothing was imported', rowErrors);
  const base = { ...ref(state, command.documentId), schemeId: command.schemeId };
  if (added.length > 0) return [{ type: 'SubBudgetsAdded', data: { ...base, subBudgets: added } }];
  return preselected.length > 0 ? [{ type: 'ClassifierPreselectionsSet', data: { ...base, list: preselected } }] : [];
}

/**
 * `evolve` updates the folded state in place: a document's stream may hold thousands of
 * sub-budget events, and copying the maps per event would make a fold quadratic. The state is
 * owned by the fold that made it (`foldEvents` starts from a fresh `initialState()`), so no
 * earlier reader sees the change; `decide` never changes the state.
 */
function withScheme(state: DocumentSchemesState, schemeId: string, change: (scheme: SchemeState) => void): DocumentSchemesState {
  const scheme = state.schemes.get(schemeId);
  if (scheme) change(scheme);
  return state;
}

function evolve(state: DocumentSchemesState, event: SchemeEvent): DocumentSchemesState {
  switch (event.type) {
    case 'SchemeCreated': {
      const { schemeId, name, fieldName, description, displayOrder, classifierList } = event.data;
      state.schemes.set(schemeId, { name, fieldName, description, displayOrder, classifierList, subBudgets: new Map(), combinations: new Map() });
      state.organizationId = event.data.organizationId;
      return state;
    }
    case 'SchemeUpdated': {
      const { name, fieldName, description, displayOrder, classifierList } = event.data;
      return withScheme(state, event.data.schemeId, (scheme) => {
        Object.assign(scheme, { name, fieldName, description, displayOrder, classifierList });
      });
    }
    case 'SchemeDeleted':
      state.schemes.delete(event.data.schemeId);
      for (const key of [...state.pins.keys()]) if (key.endsWith(`:${event.data.schemeId}`)) state.pins.delete(key);
      return state;
    case 'SchemesReordered':
      for (const { id, displayOrder } of event.data.list) {
        const scheme = state.schemes.get(id);
        if (scheme) scheme.displayOrder = displayOrder;
      }
      return state;
    case 'SubBudgetsAdded':
      return withScheme(state, event.data.schemeId, (scheme) => {
        for (const { subBudgetId, name, classifiers, preselections } of event.data.subBudgets) {
          scheme.subBudgets.set(subBudgetId, { name, classifiers, preselections });
          scheme.combinations.set(combinationKey(scheme.classifierList, classifiers), subBudgetId);
        }
      });
    case 'SubBudgetUpdated':
      return withScheme(state, event.data.schemeId, (scheme) => {
        const current = scheme.subBudgets.get(event.data.subBudgetId);
        if (!current) return;
        scheme.combinations.delete(combinationKey(scheme.classifierList, current.classifiers));
        scheme.subBudgets.set(event.data.subBudgetId, { ...current, name: event.data.name, classifiers: event.data.classifiers });
        scheme.combinations.set(combinationKey(scheme.classifierList, event.data.classifiers), event.data.subBudgetId);
      });
    case 'SubBudgetsDeleted': {
      const removed = new Set(event.data.subBudgetIds);
      withScheme(state, event.data.schemeId, (scheme) => {
        for (const id of removed) {
          const current = scheme.subBudgets.get(id);
          if (current) scheme.combinations.delete(combinationKey(scheme.classifierList, current.classifiers));
          scheme.subBudgets.delete(id);
        }
      });
      for (const [key, ids] of state.pins)
        state.pins.set(
          key,
          ids.filter((id) => !removed.has(id)),
        );
      return state;
    }
    case 'ClassifierPreselectionsSet':
      return withScheme(state, event.data.schemeId, (scheme) => {
        for (const { subBudgetId, preselections } of event.data.list) {
          const current = scheme.subBudgets.get(subBudgetId);
          if (current) scheme.subBudgets.set(subBudgetId, { ...current, preselections });
        }
      });
    case 'SubBudgetsPinned':
      state.pins.set(`${event.data.budgetId}:${event.data.schemeId}`, event.data.pinned);
      return state;
  }
}

export const schemeDecider: Decider<SchemeCommand, SchemeEvent, DocumentSchemesState> = {
  streamName: (command) => documentSchemesStream(command.documentId),
  initialState: () => ({ organizationId: null, schemes: new Map(), pins: new Map() }),
  evolve,
  decide(command, state) {
    switch (command.type) {
      case 'CreateScheme':
        return createScheme(command, state);
      case 'UpdateScheme':
        return updateScheme(command, state);
      case 'DeleteScheme':
        return deleteScheme(command, state);
      case 'ReorderSchemes':
        return reorder(command, state);
      case 'CreateSubBudget':
        return createSubBudget(command, state);
      case 'UpdateSubBudget':
        return updateSubBudget(command, state);
      case 'DeleteSubBudgets':
        return deleteSubBudgets(command, state);
      case 'SetClassifierPreselections':
        return setPreselections(command, state);
      case 'PinSubBudgets':
        return pin(command, state);
      case 'ImportSubBudgets':
        return importSubBudgets(command, state);
      case 'CopySchemes':
        return copySchemes(command, state);
    }
  },
};
