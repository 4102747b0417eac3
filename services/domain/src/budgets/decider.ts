import { DomainError, fieldError } from '@eelarve/shared';
import type { Decider } from '../decider';
import type { BudgetCopyChoice, BudgetEvent, BudgetFields, BudgetOrderEvent, BudgetType } from './events';

/** At most 3 tags per budget (spec 2, Budget list table and section 9). */
export const MAX_BUDGET_TAGS = 3;

export interface ActiveBudget extends BudgetFields {
  status: 'active';
  documentId: string;
  organizationId: string;
  type: BudgetType;
  syncEnabled: boolean;
}

export type BudgetState = { status: 'none' } | ActiveBudget | { status: 'deleted' };

/**
 * What the gateway knows about a budget of the same document that may be summed: its own
 * components (for descendants) and whether its resource status disables reading. Budgets the
 * caller cannot read are marked `readable: false` (or left out): they cannot be chosen, but their
 * components still count when looking for cycles.
 */
export interface SumComponentFact {
  id: string;
  sumBudgetComponentIds: readonly string[];
  /** False: the caller cannot read it, so it cannot be a component (default true). */
  readable?: boolean;
  /** The budget's resource status disables reading (resource statuses come later: always false for now). */
  readDisabledByStatus?: boolean;
}

interface BudgetInput {
  budgetId: string;
  name: string;
  description: string;
  resourceStatusId: string | null;
  sumBudgetComponentIds: string[];
  /** Facts about the document's other budgets (required to check a SUM_BUDGET's components). */
  componentFacts?: readonly SumComponentFact[];
  /** MONITORING only; undefined keeps the current value (only IS_ADMIN may send them). */
  gwUrl?: string | null;
  erpUrl?: string | null;
}

export type BudgetCommand =
  | (BudgetInput & {
      type: 'CreateBudget';
      documentId: string;
      organizationId: string;
      budgetType: BudgetType;
      tags: string[];
      now: Date;
      /** False refuses the budget (DOCUMENT_MISSING_MASTER_CLASSIFIER); undefined skips the check. */
      documentHasMasterClassifier?: boolean;
      copiedFrom?: BudgetCopyChoice | null;
    })
  | (BudgetInput & {
      type: 'UpdateBudget';
      budgetType?: BudgetType;
      /**
       * The budget's settings are locked by a status (METADATA_WRITE_DISABLED) and the caller is a
       * status administrator: only its status may change, so a locked budget can be unlocked.
       */
      onlyStatusMayChange?: boolean;
    })
  | { type: 'SetBudgetTags'; budgetId: string; tags: string[] }
  | { type: 'SetBudgetSync'; budgetId: string; enabled: boolean }
  | { type: 'IssueBudgetApiKey'; budgetId: string; now: Date }
  /** `usedAsComponentBy`: sum budgets (from the read models) that add this budget up. */
  | { type: 'DeleteBudget'; budgetId: string; usedAsComponentBy: readonly string[] };

export const budgetStream = (budgetId: string) => `budget-${budgetId}`;

/** A field of the command breaks a rule; the gateway answers it as that request body field. */
const invalid = (field: string, message: string, text?: string) => fieldError('SCHEMA_VALIDATION_ERROR', field, message, text);

function active(state: BudgetState): ActiveBudget {
  if (state.status !== 'active') throw new DomainError('BUDGET_NOT_FOUND');
  return state;
}

/** Trimmed, distinct, non-empty tags; at most three. */
export function normaliseTags(tags: readonly string[]): string[] {
  const result = [...new Set(tags.map((tag) => tag.trim()).filter((tag) => tag.length > 0))];
  if (result.length > MAX_BUDGET_TAGS) throw invalid('tags', 'validation.max', `at most ${MAX_BUDGET_TAGS} tags per budget`);
  return result;
}

/** The budgets a component adds up, directly or through nested sum budgets. */
function descendantsOf(id: string, facts: ReadonlyMap<string, SumComponentFact>): Set<string> {
  const seen = new Set<string>();
  const pending = [...(facts.get(id)?.sumBudgetComponentIds ?? [])];
  while (pending.length > 0) {
    const next = pending.pop() as string;
    if (seen.has(next)) continue;
    seen.add(next);
    pending.push(...(facts.get(next)?.sumBudgetComponentIds ?? []));
  }
  return seen;
}

/**
 * The rules of spec 2 section 5 for a sum budget's components: at least one, not itself, known
 * and readable budgets of the document, no cycle through nested sum budgets, and no component
 * that another selected component already adds up (it would be counted twice).
 */
export function checkSumComponents(budgetId: string, componentIds: readonly string[], componentFacts: readonly SumComponentFact[]): string[] {
  const ids = [...new Set(componentIds)];
  if (ids.length === 0) throw new DomainError('SUM_BUDGET_NO_COMPONENTS');
  if (ids.includes(budgetId)) throw new DomainError('SUM_BUDGET_SELF_REFERENCE');
  const facts = new Map(componentFacts.filter((fact) => fact.id !== budgetId).map((fact) => [fact.id, fact]));
  // The budget's own (old) components must not count when looking for cycles.
  for (const id of ids) {
    const fact = facts.get(id);
    if (!fact || fact.readable === false)
      throw new DomainError('SUM_BUDGET_COMPONENT_NOT_FOUND', 'a component is not a readable budget of the document', { componentId: id });
    if (fact.readDisabledByStatus) throw new DomainError('COMPONENT_READ_DISABLED_BY_STATUS', undefined, { componentId: id });
  }
  const descendants = new Map(ids.map((id) => [id, descendantsOf(id, facts)]));
  for (const id of ids) {
    if (descendants.get(id)?.has(budgetId)) throw new DomainError('SUM_BUDGET_CYCLE', 'a component adds up this budget', { componentId: id });
  }
  for (const id of ids) {
    const container = ids.find((other) => other !== id && descendants.get(other)?.has(id));
    if (container)
      throw new DomainError('COMPONENT_ALREADY_IN_USE', 'a selected sum budget already adds up this component', { componentId: id, usedBy: container });
  }
  return ids;
}

function fieldsFor(type: BudgetType, input: BudgetInput, current?: ActiveBudget): Omit<BudgetFields, 'tags'> {
  let sumBudgetComponentIds: string[] = [];
  if (type === 'SUM_BUDGET') {
    sumBudgetComponentIds = checkSumComponents(input.budgetId, input.sumBudgetComponentIds, input.componentFacts ?? []);
  } else if (input.sumBudgetComponentIds.length > 0) {
    throw invalid('sumBudgetComponentIds', 'validation.invalid', 'only a sum budget has components');
  }
  const monitoring = type === 'MONITORING';
  for (const field of ['gwUrl', 'erpUrl'] as const) {
    if (!monitoring && input[field] != null) throw invalid(field, 'validation.invalid', `only a monitoring budget has ${field}`);
  }
  return {
    name: input.name,
    description: input.description,
    resourceStatusId: input.resourceStatusId,
    sumBudgetComponentIds,
    gwUrl: monitoring ? (input.gwUrl === undefined ? (current?.gwUrl ?? null) : input.gwUrl) : null,
    erpUrl: monitoring ? (input.erpUrl === undefined ? (current?.erpUrl ?? null) : input.erpUrl) : null,
  };
}

function create(command: Extract<BudgetCommand, { type: 'CreateBudget' }>, state: BudgetState): BudgetEvent[] {
  if (state.status !== 'none') throw new DomainError('CONCURRENT_MODIFICATION', 'budget already exists');
  if (command.documentHasMasterClassifier === false) throw new DomainError('DOCUMENT_MISSING_MASTER_CLASSIFIER');
  const { budgetId, documentId, organizationId, budgetType: type, copiedFrom } = command;
  if (copiedFrom) {
    // Copy exists only for new common or monitoring budgets (spec 2, section 4).
    if (type === 'SUM_BUDGET') throw invalid('copy', 'validation.invalid', 'a sum budget cannot be copied from another budget');
    if (copiedFrom.sourceBudgetId === budgetId) throw new DomainError('BUDGET_NOT_FOUND', 'source budget not found');
    const seen = new Set<string>();
    for (const scheme of copiedFrom.schemes) {
      if (seen.has(scheme.schemeId)) throw new DomainError('BUDGET_COPY_INVALID_SCHEME_PARAMETERS', 'a scheme appears twice', { schemeId: scheme.schemeId });
      seen.add(scheme.schemeId);
      // Pinned preselection copy and comment copy are disabled for monitoring budgets (spec 2, section 5).
      if (type === 'MONITORING' && (scheme.copyPinnedPreselections || scheme.copyComments)) {
        throw new DomainError('BUDGET_COPY_INVALID_SCHEME_PARAMETERS', 'a monitoring budget copies neither pinned preselections nor comments', {
          schemeId: scheme.schemeId,
        });
      }
    }
    const anything = copiedFrom.copyPermissions || copiedFrom.schemes.some((s) => s.copyPinnedPreselections || s.copySubBudgetPermissions || s.copyComments);
    if (!anything) throw new DomainError('BUDGET_COPY_INVALID_SCHEME_PARAMETERS', 'choose permissions or at least one scheme option to copy');
  }
  const fields = fieldsFor(type, command);
  return [
    {
      type: 'BudgetCreated',
      data: {
        budgetId,
        documentId,
        organizationId,
        type,
        ...fields,
        tags: normaliseTags(command.tags),
        createdAt: command.now.toISOString(),
        ...(copiedFrom ? { copiedFrom: { ...copiedFrom, schemes: copiedFrom.schemes.map((scheme) => ({ ...scheme })) } } : {}),
      },
    },
  ];
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((value, index) => value === b[index]);

function update(command: Extract<BudgetCommand, { type: 'UpdateBudget' }>, state: BudgetState): BudgetEvent[] {
  const budget = active(state);
  if (command.budgetType !== undefined && command.budgetType !== budget.type) throw new DomainError('BUDGET_TYPE_IMMUTABLE');
  const fields = fieldsFor(budget.type, command, budget);
  const settingsUnchanged =
    budget.name === fields.name &&
    budget.description === fields.description &&
    sameList(budget.sumBudgetComponentIds, fields.sumBudgetComponentIds) &&
    budget.gwUrl === fields.gwUrl &&
    budget.erpUrl === fields.erpUrl;
  if (command.onlyStatusMayChange && !settingsUnchanged) {
    throw new DomainError('ACTION_DISALLOWED_DUE_TO_STATUS', "the budget's status locks its settings: only its status may change");
  }
  if (settingsUnchanged && budget.resourceStatusId === fields.resourceStatusId) return [];
  return [{ type: 'BudgetUpdated', data: { budgetId: command.budgetId, documentId: budget.documentId, organizationId: budget.organizationId, ...fields } }];
}

function monitoring(state: BudgetState): ActiveBudget {
  const budget = active(state);
  if (budget.type !== 'MONITORING') throw new DomainError('BUDGET_NOT_MONITORING');
  return budget;
}

export const budgetDecider: Decider<BudgetCommand, BudgetEvent, BudgetState> = {
  streamName: (command) => budgetStream(command.budgetId),
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'BudgetCreated': {
        const { documentId, organizationId, type, name, description, tags, resourceStatusId, sumBudgetComponentIds, gwUrl, erpUrl } = event.data;
        return {
          status: 'active',
          documentId,
          organizationId,
          type,
          name,
          description,
          tags,
          resourceStatusId,
          sumBudgetComponentIds,
          gwUrl,
          erpUrl,
          syncEnabled: false,
        };
      }
      case 'BudgetUpdated': {
        if (state.status !== 'active') return state;
        const { name, description, resourceStatusId, sumBudgetComponentIds, gwUrl, erpUrl } = event.data;
        return { ...state, name, description, resourceStatusId, sumBudgetComponentIds, gwUrl, erpUrl };
      }
      case 'BudgetTagsSet':
        return state.status === 'active' ? { ...state, tags: event.data.tags } : state;
      case 'BudgetSyncSet':
        return state.status === 'active' ? { ...state, syncEnabled: event.data.enabled } : state;
      case 'BudgetApiKeyIssued':
        return state;
      case 'BudgetDeleted':
        return { status: 'deleted' };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateBudget':
        return create(command, state);
      case 'UpdateBudget':
        return update(command, state);
      case 'SetBudgetTags': {
        const budget = active(state);
        const tags = normaliseTags(command.tags);
        if (sameList(budget.tags, tags)) return [];
        return [{ type: 'BudgetTagsSet', data: { budgetId: command.budgetId, documentId: budget.documentId, organizationId: budget.organizationId, tags } }];
      }
      case 'SetBudgetSync': {
        const budget = monitoring(state);
        if (budget.syncEnabled === command.enabled) return [];
        return [
          {
            type: 'BudgetSyncSet',
            data: { budgetId: command.budgetId, documentId: budget.documentId, organizationId: budget.organizationId, enabled: command.enabled },
          },
        ];
      }
      case 'IssueBudgetApiKey': {
        const budget = monitoring(state);
        return [
          {
            type: 'BudgetApiKeyIssued',
            data: { budgetId: command.budgetId, documentId: budget.documentId, organizationId: budget.organizationId, issuedAt: command.now.toISOString() },
          },
        ];
      }
      case 'DeleteBudget': {
        const budget = active(state);
        const users = command.usedAsComponentBy.filter((id) => id !== command.budgetId);
        if (users.length > 0) throw new DomainError('BUDGET_USED_AS_SUM_COMPONENT', 'a sum budget adds up this budget', { sumBudgetIds: users });
        return [{ type: 'BudgetDeleted', data: { budgetId: command.budgetId, documentId: budget.documentId, organizationId: budget.organizationId } }];
      }
    }
  },
};

// ---- order of a document's budgets ------------------------------------------

export type BudgetOrderCommand = { type: 'ReorderBudgets'; documentId: string; list: { id: string; order: number }[] };

/** One stream per document carries the order of its budgets (the read model applies it). */
export const budgetOrderStream = (documentId: string) => `budgetorder-${documentId}`;

export const budgetOrderDecider: Decider<BudgetOrderCommand, BudgetOrderEvent, { revision: number }> = {
  streamName: (command) => budgetOrderStream(command.documentId),
  initialState: () => ({ revision: 0 }),
  evolve: (state) => ({ revision: state.revision + 1 }),
  decide(command) {
    const ids = new Set(command.list.map((entry) => entry.id));
    if (ids.size !== command.list.length) throw invalid('list', 'validation.unique', 'a budget appears twice in the order');
    if (command.list.length === 0) return [];
    return [{ type: 'BudgetsReordered', data: { documentId: command.documentId, list: command.list.map(({ id, order }) => ({ id, order })) } }];
  },
};
