import { schemeDecider } from '@eelarve/domain';
import type { BudgetRow } from '@eelarve/projections/budgets/queries';
import { budgetPinnedSubBudgets, budgetPins, documentSchemesInOrder, subBudgetsOfSchemes } from '@eelarve/projections/schemes/queries';
import { BUDGET_COPY_PARTS, type BudgetCopyInput, type BudgetCopyPart, DomainError, fieldError, isErrorCode, type Task } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { CommandActor } from '../../infrastructure/commands';
import { type AppDatabase, readModels } from '../../infrastructure/database';
import { createRegistry } from '../../infrastructure/registry';
import type { Caller } from '../../types';
import type { TaskContext } from '../tasks/context';
import { COPY_TASK_POLICY, type TaskDefinition, type TaskStep } from '../tasks/definition';
import { awaitTask } from '../tasks/records';

/**
 * Copy from an existing budget (spec 2, Budget form). Schemes match by technical name
 * (fieldName, case-insensitive): within the same document that is the scheme itself. Sub-budgets
 * transfer by id within the same document and by name (case-insensitive) into another one.
 */
export interface MatchingScheme {
  schemeId: string;
  name: string;
  fieldName: string;
  targetSchemeId: string;
  pinnedCount: number;
}

export interface TransferrableSubBudget {
  sourceSubBudgetId: string;
  sourceSchemeId: string;
  name: string;
  targetSchemeId: string;
  targetSubBudgetId: string | null;
}

const key = (value: string) => value.trim().toLowerCase();

/** What a copy needs of its source budget (a read-model row has it; a task keeps just this). */
export type BudgetSource = Pick<BudgetRow, 'id' | 'document_id' | 'organization_id'>;

export async function matchingSchemes(app: { db: AppDatabase }, source: BudgetSource, targetDocumentId: string): Promise<MatchingScheme[]> {
  const read = readModels(app.db);
  const [sourceSchemes, targetSchemes, pins] = await Promise.all([
    documentSchemesInOrder(read, source.document_id),
    documentSchemesInOrder(read, targetDocumentId),
    budgetPins(read, source.id),
  ]);
  const targets = new Map(targetSchemes.map((scheme) => [key(scheme.field_name), scheme.id]));
  return sourceSchemes.flatMap((scheme) => {
    const targetSchemeId = targets.get(key(scheme.field_name));
    if (!targetSchemeId) return [];
    return [
      {
        schemeId: scheme.id,
        name: scheme.name,
        fieldName: scheme.field_name,
        targetSchemeId,
        pinnedCount: pins.filter((pin) => pin.scheme_id === scheme.id).length,
      },
    ];
  });
}

export async function transferrableSubBudgets(app: { db: AppDatabase }, source: BudgetSource, targetDocumentId: string): Promise<TransferrableSubBudget[]> {
  const schemes = await matchingSchemes(app, source, targetDocumentId);
  if (schemes.length === 0) return [];
  const read = readModels(app.db);
  const pinned = await budgetPinnedSubBudgets(read, source.id);
  const sameDocument = targetDocumentId === source.document_id;
  const targetSubBudgets = sameDocument
    ? []
    : await subBudgetsOfSchemes(
        read,
        schemes.map((scheme) => scheme.targetSchemeId),
      );
  const byScheme = new Map(schemes.map((scheme) => [scheme.schemeId, scheme.targetSchemeId]));
  return pinned.flatMap((row) => {
    const targetSchemeId = byScheme.get(row.scheme_id);
    if (!targetSchemeId) return [];
    const target = sameDocument
      ? row.id
      : (targetSubBudgets.find((candidate) => candidate.scheme_id === targetSchemeId && key(candidate.name) === key(row.name))?.id ?? null);
    return [{ sourceSubBudgetId: row.id, sourceSchemeId: row.scheme_id, name: row.name, targetSchemeId, targetSubBudgetId: target }];
  });
}

/** Every chosen scheme must be one of the matching ones. */
export function assertCopySchemes(chosen: readonly { schemeId: string }[], matching: readonly MatchingScheme[]): void {
  for (const option of chosen) {
    if (!matching.some((scheme) => scheme.schemeId === option.schemeId)) {
      throw new DomainError('BUDGET_COPY_INVALID_SCHEME_PARAMETERS', 'the scheme does not match a scheme of the document', { schemeId: option.schemeId });
    }
  }
}

// ---- the parts of a copy --------------------------------------------------------------------

/** What a part's step gets: the new budget, its source, and the schemes the part was chosen for. */
export interface BudgetCopyContext extends TaskContext {
  /** Who asked for the copy; every command a step runs runs as them. */
  actor: CommandActor;
  source: BudgetSource;
  budgetId: string;
  documentId: string;
  /** Source scheme ids the part was chosen for (empty for the budget-wide 'permissions'). */
  schemeIds: string[];
}

export type BudgetCopyStep = (context: BudgetCopyContext) => Promise<void>;

/**
 * Each part of a budget copy is carried out by a registered step: 'pinnedPreselections' by this
 * feature; 'permissions' and 'subBudgetPermissions' by the resource-permissions feature and
 * 'comments' by the comments feature when they arrive. A chosen part without a step is refused
 * (COPY_PART_NOT_AVAILABLE) before anything is created, so nothing is silently skipped. Steps run
 * as a BUDGET_COPY task in the worker; a retried attempt runs them again, so each must be
 * idempotent (setting pins is: the same pins again change nothing).
 */
const steps = createRegistry<BudgetCopyPart, BudgetCopyStep>();

/** Registers (or replaces) a part's step; the returned function restores what was there. */
export const registerBudgetCopyPart = (part: BudgetCopyPart, step: BudgetCopyStep): (() => void) => steps.register(part, step);

export const availableBudgetCopyParts = (): BudgetCopyPart[] => BUDGET_COPY_PARTS.filter((part) => steps.has(part));

type CopyChoice = Required<Pick<BudgetCopyInput, 'copyPermissions'>> & {
  schemes: { schemeId: string; copyPinnedPreselections: boolean; copySubBudgetPermissions: boolean; copyComments: boolean }[];
};

/** The chosen parts in the order they run, each with the schemes it was chosen for and the field that chose it. */
export function chosenBudgetCopyParts(copy: CopyChoice): { part: BudgetCopyPart; schemeIds: string[]; field: string }[] {
  const perScheme = (part: BudgetCopyPart, flag: 'copyPinnedPreselections' | 'copySubBudgetPermissions' | 'copyComments') => {
    const index = copy.schemes.findIndex((scheme) => scheme[flag]);
    if (index < 0) return [];
    return [{ part, schemeIds: copy.schemes.filter((scheme) => scheme[flag]).map((scheme) => scheme.schemeId), field: `copy.schemes.${index}.${flag}` }];
  };
  return [
    ...(copy.copyPermissions ? [{ part: 'permissions' as const, schemeIds: [], field: 'copy.copyPermissions' }] : []),
    ...perScheme('pinnedPreselections', 'copyPinnedPreselections'),
    ...perScheme('subBudgetPermissions', 'copySubBudgetPermissions'),
    ...perScheme('comments', 'copyComments'),
  ];
}

/** Refuses a copy that chose a part this version cannot carry out. */
export function assertCopyPartsAvailable(copy: CopyChoice): void {
  for (const { part, field } of chosenBudgetCopyParts(copy)) {
    if (!steps.has(part)) throw fieldError('COPY_PART_NOT_AVAILABLE', field, 'copyPartUnavailable', `copying ${part} is not available`);
  }
}

/** Step 'pinnedPreselections': pins, on the new budget, the source budget's pinned sub-budgets of the chosen schemes. */
export async function copyPins(context: BudgetCopyContext): Promise<void> {
  const { source, budgetId, documentId, schemeIds } = context;
  if (schemeIds.length === 0) return;
  const transferrable = (await transferrableSubBudgets(context, source, documentId)).filter(
    (row) => row.targetSubBudgetId && schemeIds.includes(row.sourceSchemeId),
  );
  const byTarget = new Map<string, string[]>();
  for (const row of transferrable) byTarget.set(row.targetSchemeId, [...(byTarget.get(row.targetSchemeId) ?? []), row.targetSubBudgetId as string]);
  for (const [schemeId, pinned] of byTarget) {
    await context.commands.run({
      decider: schemeDecider,
      command: { type: 'PinSubBudgets', documentId, schemeId, budgetId, pinned, withRecords: [], confirmed: true },
      actor: context.actor,
      readModels: ['schemes'],
    });
  }
}

// The part this feature carries out, registered wherever this module is loaded (gateway and worker alike).
registerBudgetCopyPart('pinnedPreselections', copyPins);

// ---- the copy as a task -----------------------------------------------------------------------

export const BUDGET_COPY = 'BUDGET_COPY';

interface BudgetCopyParams {
  source: BudgetSource;
  budgetId: string;
  documentId: string;
  copy: CopyChoice;
}

/** One step per chosen part, in order; a part whose step vanished fails the task (COPY_STEP_NOT_AVAILABLE). */
function budgetCopySteps(context: TaskContext, task: Task, actor: CommandActor): TaskStep[] {
  const { source, budgetId, documentId, copy } = task.params as unknown as BudgetCopyParams;
  const { db, store, commands, config, log } = context;
  return chosenBudgetCopyParts(copy).map(({ part, schemeIds }) => ({
    name: part,
    run: async () => {
      const step = steps.get(part);
      if (!step) throw new Error('COPY_STEP_NOT_AVAILABLE');
      await step({ db, store, commands, config, log, actor, source, budgetId, documentId, schemeIds });
    },
  }));
}

export const budgetCopyTask: TaskDefinition = { type: BUDGET_COPY, policy: COPY_TASK_POLICY, steps: budgetCopySteps };

/** How long the creating request waits for the copy's parts before answering anyway. */
const BUDGET_COPY_WAIT_MS = 60_000;

/**
 * Carries out the chosen parts on the new budget `budgetId` as a BUDGET_COPY task in the worker
 * and waits for it: the budget form's answer means the copy is there, as before. A failed part
 * answers its error; should the worker take longer than a minute, the request answers and the
 * copy goes on (GET api/task/{id} tells).
 */
export async function copyBudget(
  app: FastifyInstance,
  caller: Caller,
  target: { source: BudgetSource; budgetId: string; documentId: string },
  copy: CopyChoice,
): Promise<string> {
  const { auth, actor } = caller;
  const params: BudgetCopyParams = { source: pickSource(target.source), budgetId: target.budgetId, documentId: target.documentId, copy: pickChoice(copy) };
  const taskId = await app.tasks.start(budgetCopyTask, {
    type: BUDGET_COPY,
    organizationId: target.source.organization_id,
    userId: auth.userId,
    occupationId: auth.occupationId,
    documentId: target.documentId,
    params: params as unknown as Record<string, unknown>,
    actor: { ...actor, causationId: actor.correlationId },
  });
  const task = await awaitTask(app.db, taskId, BUDGET_COPY_WAIT_MS);
  if (task?.status === 'ERROR') throw taskError(task.error);
  return taskId;
}

const pickSource = ({ id, document_id, organization_id }: BudgetSource): BudgetSource => ({ id, document_id, organization_id });
const pickChoice = (copy: CopyChoice): CopyChoice => ({
  copyPermissions: copy.copyPermissions,
  schemes: copy.schemes.map(({ schemeId, copyPinnedPreselections, copySubBudgetPermissions, copyComments }) => ({
    schemeId,
    copyPinnedPreselections,
    copySubBudgetPermissions,
    copyComments,
  })),
});

/** A task's error as the request's: a domain error keeps its code, anything else is an internal error. */
function taskError(code: string | null): Error {
  if (isErrorCode(code)) return new DomainError(code, `the budget copy failed: ${code}`);
  return new Error(`the budget copy failed: ${code ?? 'unknown error'}`);
}
