import {
  CLASSIFIER_CODE_LENGTH,
  type ClassifierItemsBulkEdit,
  CODE_TYPES,
  type CodeSettings,
  type CodeSettingsInput,
  codeTypePattern,
  DomainError,
  type DisplayMode,
  fieldError,
  type GroupedByRef,
} from '@eelarve/shared';
import type { Decider } from '../decider';
import type { ClassifierDefinition, ClassifierEvent, ClassifierItemData, ClassifiersReordered } from './events';
import { codeKey, codeProblem, type GroupingContext, groupingProblems, indexGroupings, type RawRow, validateImportRows } from './items';

export interface ActiveClassifier extends ClassifierDefinition {
  status: 'active';
  documentId: string;
  organizationId: string;
  groupingId: string | null;
  items: Map<string, ClassifierItemData>;
  /** codeKey(code) → item id. */
  codes: Map<string, string>;
}

export type ClassifierState = { status: 'none' } | ActiveClassifier | { status: 'deleted' };

export interface ClassifierFields {
  name: string;
  itemName: string;
  fieldName: string;
  description: string;
  required: boolean;
  itemCanChangeSign: boolean;
  primary: boolean;
  primaryGroupedById: string | null;
  displayOrder?: number;
  displayMode: DisplayMode;
  codeSettings: CodeSettingsInput;
}

/**
 * Facts from other aggregates and read models, read by the gateway and handed in with the
 * command (the decider does no I/O). Field-name uniqueness is claimed by a reservation stream.
 */
export interface ClassifierContext {
  /** This classifier is the document's master classifier. */
  isMaster: boolean;
  /** For a grouping classifier: the classifier it groups is the document's master classifier. */
  groupsMaster: boolean;
  /** Grouping classifiers that group this one's items. */
  groupedByIds: string[];
  /** Used as an additional (secondary) classifier in some scheme of the document. */
  secondaryInScheme: boolean;
  /** For a grouping classifier: items of the grouped classifier with no value for it. */
  groupedItemsWithoutValue: number;
  /** Records of the document without a value for this classifier (records arrive in a later issue). */
  recordsWithoutValue: number;
}

export type ClassifierCommand =
  | ({
      type: 'CreateClassifier';
      classifierId: string;
      documentId: string;
      organizationId: string;
      groupingId: string | null;
      context: ClassifierContext;
    } & ClassifierFields)
  | ({ type: 'UpdateClassifier'; classifierId: string; context: ClassifierContext } & ClassifierFields)
  | { type: 'DeleteClassifier'; classifierId: string; usedInScheme: boolean; isMaster: boolean; groupedByIds: string[] }
  | { type: 'AddClassifierItem'; classifierId: string; item: ClassifierItemData; groupings: GroupingContext[] }
  | {
      type: 'UpdateClassifierItem';
      classifierId: string;
      item: ClassifierItemData;
      groupings: GroupingContext[];
      /** Used in sub-budgets, records or groupings: then its code cannot change. */
      inUse: boolean;
    }
  | { type: 'BulkEditClassifierItems'; classifierId: string; edit: ClassifierItemsBulkEdit; groupings: GroupingContext[] }
  | { type: 'DeleteClassifierItems'; classifierId: string; itemIds: string[]; inUse: string[] }
  | { type: 'ImportClassifierItems'; classifierId: string; rows: RawRow[]; loose: boolean; newIds: string[]; groupings: GroupingContext[] }
  /** A classifier of another document, already valid there, with references translated (see copy.ts). */
  | {
      type: 'CopyClassifier';
      classifierId: string;
      documentId: string;
      organizationId: string;
      groupingId: string | null;
      definition: ClassifierDefinition;
      items: ClassifierItemData[];
    };

export const classifierStream = (classifierId: string) => `classifier-${classifierId}`;

function active(state: ClassifierState): ActiveClassifier {
  if (state.status !== 'active') throw new DomainError('CLASSIFIER_NOT_FOUND');
  return state;
}

export function completeCodeSettings(input: CodeSettingsInput): CodeSettings {
  const type = CODE_TYPES[input.typeName];
  return { ...input, typeRegex: type.typeRegex, regexFlag: type.regexFlag, ranking: type.ranking };
}

/** A rule broken inside a field's value (`codeSettings.minLength`): answered with that path as it is. */
function invalid(path: string, message: string): DomainError {
  return new DomainError('SCHEMA_VALIDATION_ERROR', message, [{ path, message }]);
}

/** Code settings against each other and against the existing codes (spec 2, sections 5 and 9). */
function checkCodeSettings(settings: CodeSettingsInput, state: ActiveClassifier | null): void {
  if (settings.minLength > settings.maxLength) throw new DomainError('CLASSIFIER_MIN_GREATER_THAN_MAX');
  const codes = state ? [...state.items.values()].map((item) => item.code) : [];
  if (codes.length === 0) {
    if (settings.minLength > CLASSIFIER_CODE_LENGTH.defaultMinUpperBound) throw invalid('codeSettings.minLength', 'validation.max');
    return;
  }
  const shortest = Math.min(...codes.map((code) => code.length));
  const longest = Math.max(...codes.map((code) => code.length));
  if (settings.minLength > shortest || settings.maxLength < longest) throw new DomainError('LENGTH_CONFLICTS_WITH_CODES', undefined, { shortest, longest });
  if (state && CODE_TYPES[settings.typeName].ranking !== state.codeSettings.ranking) {
    const pattern = codeTypePattern(settings.typeName);
    const misfits = codes.filter((code) => !pattern.test(code));
    if (misfits.length > 0) throw new DomainError('CODE_TYPE_BLOCKED_BY_ITEMS', undefined, { codes: misfits.slice(0, 20) });
  }
}

function checkDefinition(fields: ClassifierFields, groupingId: string | null, context: ClassifierContext, state: ActiveClassifier | null): void {
  checkCodeSettings(fields.codeSettings, state);
  // Sign changes only for a grouping classifier of the master classifier (spec 2, sections 4 and 5).
  if (fields.itemCanChangeSign && !(groupingId && context.groupsMaster)) throw new DomainError('ONLY_GROUPING_CAN_CHANGE_SIGN');
  if (!fields.itemCanChangeSign && state?.itemCanChangeSign && [...state.items.values()].some((item) => item.sign === -1)) {
    throw new DomainError('HAS_SIGN_CHANGING_ITEMS');
  }
  if (context.isMaster && !fields.required) throw new DomainError('MASTER_CLASSIFIER_MUST_BE_REQUIRED');
  if (fields.required && !state?.required) {
    if (context.secondaryInScheme) throw new DomainError('CANNOT_BE_REQUIRED', 'used as an additional classifier in a scheme');
    if (groupingId && context.groupedItemsWithoutValue > 0) throw new DomainError('CANNOT_BE_REQUIRED', 'grouped items without a grouping value');
    if (context.recordsWithoutValue > 0) throw new DomainError('NOT_USED_IN_ALL_RECORDS');
  }
  if (context.groupedByIds.length > 0) {
    if (!fields.primaryGroupedById || !context.groupedByIds.includes(fields.primaryGroupedById)) throw new DomainError('INVALID_PRIMARY_GROUPING');
  } else if (fields.primaryGroupedById) throw new DomainError('INVALID_PRIMARY_GROUPING');
}

function definitionOf(fields: ClassifierFields, displayOrder: number): ClassifierDefinition {
  return {
    name: fields.name,
    itemName: fields.itemName,
    fieldName: fields.fieldName,
    description: fields.description,
    required: fields.required,
    itemCanChangeSign: fields.itemCanChangeSign,
    primary: fields.primary,
    primaryGroupedById: fields.primaryGroupedById,
    displayOrder,
    displayMode: fields.displayMode,
    codeSettings: completeCodeSettings(fields.codeSettings),
  };
}

const refOf = (classifierId: string, state: ActiveClassifier) => ({ classifierId, documentId: state.documentId, organizationId: state.organizationId });

/** One item against the classifier: code, sign and groupings. `except`: the item's own id when editing. */
function checkItem(state: ActiveClassifier, item: ClassifierItemData, groupings: GroupingContext[], options: { checkCode: boolean }): void {
  if (options.checkCode) {
    const problem = codeProblem(item.code, state.codeSettings);
    if (problem) throw new DomainError('INVALID_CODE', problem, [{ path: 'code', message: problem === 'codeTypeError' ? 'codeTypeError' : problem }]);
    const holder = state.codes.get(codeKey(item.code));
    if (holder && holder !== item.id) throw new DomainError('ITEM_CODE_IN_USE');
  }
  checkSign(state, item.sign);
  const problems = groupingProblems(item.groupedBy, indexGroupings(groupings));
  if (problems.length > 0) throw new DomainError('INVALID_GROUPING', problems[0]!.message, problems);
}

function checkSign(state: ActiveClassifier, sign: 1 | -1 | null): void {
  if (sign !== null && !state.itemCanChangeSign) throw new DomainError('ONLY_GROUPING_CAN_CHANGE_SIGN');
}

const normalisedSign = (state: ActiveClassifier, sign: 1 | -1 | null) => (state.itemCanChangeSign ? (sign ?? 1) : null);

function bulkEdit(command: Extract<ClassifierCommand, { type: 'BulkEditClassifierItems' }>, state: ActiveClassifier): ClassifierEvent[] {
  const { edit } = command;
  if (edit.sign !== undefined) checkSign(state, edit.sign);
  const index = indexGroupings(command.groupings);
  const items: ClassifierItemData[] = [];
  for (const itemId of new Set(edit.itemIds)) {
    const current = state.items.get(itemId);
    if (!current) throw new DomainError('CLASSIFIER_ITEM_NOT_FOUND', itemId);
    let groupedBy: GroupedByRef[] = current.groupedBy;
    if (edit.groupedBy) {
      const replaced = new Set(edit.groupedBy.map((ref) => ref.classifierId));
      groupedBy = [
        ...current.groupedBy.filter((ref) => !replaced.has(ref.classifierId)),
        ...edit.groupedBy.filter((ref): ref is GroupedByRef => ref.itemId !== null),
      ];
    }
    const next: ClassifierItemData = {
      ...current,
      description: edit.description ?? current.description,
      sign: edit.sign !== undefined ? normalisedSign(state, edit.sign) : current.sign,
      unselectable: edit.unselectable ?? current.unselectable,
      groupedBy,
    };
    const problems = groupingProblems(next.groupedBy, index);
    if (problems.length > 0) throw new DomainError('INVALID_GROUPING', problems[0]!.message, problems);
    items.push(next);
  }
  return [{ type: 'ClassifierItemsUpdated', data: { ...refOf(command.classifierId, state), items } }];
}

function importItems(command: Extract<ClassifierCommand, { type: 'ImportClassifierItems' }>, state: ActiveClassifier): ClassifierEvent[] {
  const results = validateImportRows(command.rows, {
    codeSettings: state.codeSettings,
    itemCanChangeSign: state.itemCanChangeSign,
    existingCodes: new Set(state.codes.keys()),
    groupings: command.groupings,
  });
  const failed = results.filter((result) => result.errors.length > 0);
  // A file with errors imports nothing, unless loose mode imports the valid rows among those chosen.
  if ((failed.length > 0 && !command.loose) || failed.length === results.length) {
    throw new DomainError(
      'CLASSIFIER_IMPORT_INVALID',
      undefined,
      failed.map(({ row, errors }) => ({ row, errors })),
    );
  }
  const items: ClassifierItemData[] = [];
  results.forEach((result, position) => {
    if (result.item) items.push({ id: command.newIds[position]!, ...result.item });
  });
  return [{ type: 'ClassifierItemsAdded', data: { ...refOf(command.classifierId, state), items } }];
}

function copyClassifier(command: Extract<ClassifierCommand, { type: 'CopyClassifier' }>, state: ClassifierState): ClassifierEvent[] {
  if (state.status !== 'none') throw new DomainError('CONCURRENT_MODIFICATION', 'classifier already exists');
  const { classifierId, documentId, organizationId, groupingId, definition, items } = command;
  const created: ClassifierEvent = { type: 'ClassifierCreated', data: { classifierId, documentId, organizationId, groupingId, ...definition } };
  if (items.length === 0) return [created];
  return [created, { type: 'ClassifierItemsAdded', data: { classifierId, documentId, organizationId, items } }];
}

function evolveItems(state: ActiveClassifier, upsert: ClassifierItemData[], removed: string[] = []): ActiveClassifier {
  const items = new Map(state.items);
  const codes = new Map(state.codes);
  for (const id of removed) {
    const item = items.get(id);
    if (item) codes.delete(codeKey(item.code));
    items.delete(id);
  }
  for (const item of upsert) {
    const previous = items.get(item.id);
    if (previous) codes.delete(codeKey(previous.code));
    items.set(item.id, item);
    codes.set(codeKey(item.code), item.id);
  }
  return { ...state, items, codes };
}

export const classifierDecider: Decider<ClassifierCommand, ClassifierEvent, ClassifierState> = {
  streamName: (command) => classifierStream(command.classifierId),
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'ClassifierCreated': {
        const { classifierId: _id, documentId, organizationId, groupingId, ...definition } = event.data;
        return { status: 'active', documentId, organizationId, groupingId, ...definition, items: new Map(), codes: new Map() };
      }
      case 'ClassifierUpdated': {
        if (state.status !== 'active') return state;
        const { classifierId: _id, documentId: _d, organizationId: _o, ...definition } = event.data;
        return { ...state, ...definition };
      }
      case 'ClassifierDeleted':
        return { status: 'deleted' };
      case 'ClassifierItemsAdded':
      case 'ClassifierItemsUpdated':
        return state.status === 'active' ? evolveItems(state, event.data.items) : state;
      case 'ClassifierItemsDeleted':
        return state.status === 'active' ? evolveItems(state, [], event.data.itemIds) : state;
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateClassifier': {
        if (state.status !== 'none') throw new DomainError('CONCURRENT_MODIFICATION', 'classifier already exists');
        checkDefinition(command, command.groupingId, command.context, null);
        const { classifierId, documentId, organizationId, groupingId } = command;
        return [
          { type: 'ClassifierCreated', data: { classifierId, documentId, organizationId, groupingId, ...definitionOf(command, command.displayOrder ?? 0) } },
        ];
      }
      case 'UpdateClassifier': {
        const classifier = active(state);
        checkDefinition(command, classifier.groupingId, command.context, classifier);
        const definition = definitionOf(command, command.displayOrder ?? classifier.displayOrder);
        const { items: _i, codes: _c, status: _s, documentId: _d, organizationId: _o, groupingId: _g, ...current } = classifier;
        if (JSON.stringify(current) === JSON.stringify(definition)) return [];
        return [{ type: 'ClassifierUpdated', data: { ...refOf(command.classifierId, classifier), ...definition } }];
      }
      case 'DeleteClassifier': {
        const classifier = active(state);
        if (classifier.items.size > 0) throw new DomainError('CLASSIFIER_HAS_ITEMS');
        if (command.usedInScheme || command.isMaster) throw new DomainError('CLASSIFIER_IN_USE');
        if (command.groupedByIds.length > 0) throw new DomainError('CLASSIFIER_HAS_GROUPED_BY');
        return [{ type: 'ClassifierDeleted', data: refOf(command.classifierId, classifier) }];
      }
      case 'AddClassifierItem': {
        const classifier = active(state);
        const item = { ...command.item, sign: normalisedSign(classifier, command.item.sign) };
        checkSign(classifier, command.item.sign);
        checkItem(classifier, item, command.groupings, { checkCode: true });
        return [{ type: 'ClassifierItemsAdded', data: { ...refOf(command.classifierId, classifier), items: [item] } }];
      }
      case 'UpdateClassifierItem': {
        const classifier = active(state);
        const current = classifier.items.get(command.item.id);
        if (!current) throw new DomainError('CLASSIFIER_ITEM_NOT_FOUND');
        const codeChanged = current.code !== command.item.code;
        if (codeChanged && command.inUse) throw new DomainError('ITEM_IN_USE', 'the code of an item in use cannot change');
        checkSign(classifier, command.item.sign);
        const item = { ...command.item, sign: normalisedSign(classifier, command.item.sign) };
        checkItem(classifier, item, command.groupings, { checkCode: codeChanged });
        if (JSON.stringify(item) === JSON.stringify(current)) return [];
        return [{ type: 'ClassifierItemsUpdated', data: { ...refOf(command.classifierId, classifier), items: [item] } }];
      }
      case 'BulkEditClassifierItems':
        return bulkEdit(command, active(state));
      case 'DeleteClassifierItems': {
        const classifier = active(state);
        const itemIds = [...new Set(command.itemIds)];
        if (itemIds.some((id) => !classifier.items.has(id))) throw new DomainError('CLASSIFIER_ITEM_NOT_FOUND');
        if (command.inUse.length > 0) throw new DomainError('ITEM_IN_USE', undefined, { itemIds: command.inUse });
        return [{ type: 'ClassifierItemsDeleted', data: { ...refOf(command.classifierId, classifier), itemIds } }];
      }
      case 'ImportClassifierItems':
        return importItems(command, active(state));
      case 'CopyClassifier':
        return copyClassifier(command, state);
    }
  },
};

// ---- display order of a document's classifiers ---------------------------------

export type ClassifierOrderCommand = { type: 'ReorderClassifiers'; documentId: string; list: { id: string; displayOrder: number }[] };

export const classifierOrderStream = (documentId: string) => `classifierorder-${documentId}`;

export const classifierOrderDecider: Decider<ClassifierOrderCommand, ClassifiersReordered, { revision: number }> = {
  streamName: (command) => classifierOrderStream(command.documentId),
  initialState: () => ({ revision: 0 }),
  evolve: (state) => ({ revision: state.revision + 1 }),
  decide(command) {
    if (new Set(command.list.map((entry) => entry.id)).size !== command.list.length) throw fieldError('SCHEMA_VALIDATION_ERROR', 'list', 'validation.unique');
    if (command.list.length === 0) return [];
    return [
      { type: 'ClassifiersReordered', data: { documentId: command.documentId, list: command.list.map(({ id, displayOrder }) => ({ id, displayOrder })) } },
    ];
  },
};
