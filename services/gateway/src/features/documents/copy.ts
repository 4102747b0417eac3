import { type DocumentEvent, type DocumentState, documentDecider, documentStream, foldEvents } from '@eelarve/domain';
import { DOCUMENT_COPY_PARTS, type DocumentCopyOptions, type Task } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { CommandActor } from '../../infrastructure/commands';
import { createRegistry } from '../../infrastructure/registry';
import type { Caller } from '../../types';
import { copyClassifiers } from '../classifiers/copy';
import { copySchemes } from '../schemes/copy';
import type { TaskContext } from '../tasks/context';
import { COPY_TASK_POLICY, type TaskDefinition, type TaskStep } from '../tasks/definition';
import { documentCopyIsComplete } from './copy-status';

/**
 * Document copy (spec 2, sections 3-5): the new document is created by the request itself; the
 * rest runs as a DOCUMENT_COPY task of named steps in the worker process (GET api/task/{taskId}).
 * Routes start it with `startDocumentCopy`.
 *
 * Each part is a step registered with `registerDocumentCopyStep(name, fn)` (classifiers and
 * schemes below; the others by their features when they arrive):
 * - 'classifiers'  (option `classifiers`): classifiers and their items; put every source id
 *                  -> copy id into `context.ids` (classifiers and items) so later steps translate;
 * - 'schemes'      (option `schemes`, needs classifiers): schemes with sub-budgets and preselections;
 * - 'permissions'  (option `permissions`): per-occupation resource permissions;
 * - 'reportViews'  (option `reportViews`, needs schemes): general and personal report views.
 * Steps run in that order, each only when its option is chosen. A chosen option without a
 * registered step is refused with COPY_PART_NOT_AVAILABLE before the document is made (and, should
 * a step vanish meanwhile, fails the task with COPY_STEP_NOT_AVAILABLE): nothing is silently skipped.
 * After the classifiers step the built-in step 'masterClassifier' sets the copy's master
 * classifier to the copy of the source's one (when `context.ids` maps it).
 *
 * A retried attempt (its worker died, the database went away) runs every step again, so a step
 * must resume: copies get ids fixed by the task (`context.copyIdOf`, tasks/copy-ids.ts), and a
 * step skips what already exists under them.
 */
export const DOCUMENT_COPY_STEPS = DOCUMENT_COPY_PARTS;
export type DocumentCopyStepName = (typeof DOCUMENT_COPY_STEPS)[number];
export const DOCUMENT_COPY = 'DOCUMENT_COPY';

export interface DocumentCopyContext extends TaskContext {
  /** Who asked for the copy; use it (with its correlation id) for every command a step runs. */
  actor: CommandActor;
  /** The copy's task: the copies' ids derive from it. */
  taskId: string;
  organizationId: string;
  sourceDocumentId: string;
  targetDocumentId: string;
  options: DocumentCopyOptions;
  /** Source id -> copied id, filled by earlier steps for later ones (classifiers, items, schemes...). */
  ids: Map<string, string>;
}

export type DocumentCopyStep = (context: DocumentCopyContext) => Promise<void>;

const registry = createRegistry<DocumentCopyStepName, DocumentCopyStep>();

/** Registers (or replaces) the step that copies one part of a document; the returned function restores the previous one. */
export const registerDocumentCopyStep = (name: DocumentCopyStepName, step: DocumentCopyStep): (() => void) => registry.register(name, step);

// The parts this version copies, registered wherever this module is loaded (gateway and worker alike).
registerDocumentCopyStep('classifiers', copyClassifiers);
registerDocumentCopyStep('schemes', copySchemes);

export function documentCopyStep(name: DocumentCopyStepName): DocumentCopyStep | undefined {
  return registry.get(name);
}

/** The parts that have a registered step, i.e. that a copy can take now. */
export function availableCopySteps(): DocumentCopyStepName[] {
  return DOCUMENT_COPY_STEPS.filter((name) => registry.has(name));
}

/** The chosen parts, in the order they run. */
export function chosenCopySteps(options: DocumentCopyOptions): DocumentCopyStepName[] {
  return DOCUMENT_COPY_STEPS.filter((name) => options[name]);
}

async function documentState(context: TaskContext, documentId: string): Promise<DocumentState> {
  return foldEvents(documentDecider, (await context.store.readStream(documentStream(documentId))) as unknown as DocumentEvent[]);
}

/** Step 'masterClassifier': the copy's master classifier is the copy of the source's one (already so: nothing to do). */
async function copyMasterClassifier(context: DocumentCopyContext): Promise<void> {
  const source = await documentState(context, context.sourceDocumentId);
  const mapped = source.status === 'active' && source.masterClassifierId ? context.ids.get(source.masterClassifierId) : undefined;
  if (!mapped) return;
  const target = await documentState(context, context.targetDocumentId);
  if (target.status !== 'active' || target.masterClassifierId === mapped) return;
  const { name, description, period, recordAmountKey, allowCommentingWithReadPermissions, resourceStatusId } = target;
  // The task reports SUCCESS only once the copy's screens (documents read model) show it.
  await context.commands.run({
    decider: documentDecider,
    command: {
      type: 'UpdateDocument',
      documentId: context.targetDocumentId,
      name,
      description,
      period,
      recordAmountKey,
      allowCommentingWithReadPermissions,
      resourceStatusId,
      masterClassifierId: mapped,
      recordsCount: 0,
      platformAdmin: true,
    },
    actor: context.actor,
    readModels: ['documents'],
  });
}

interface DocumentCopyParams extends DocumentCopyOptions {
  targetDocumentId: string;
}

/** The steps of one attempt: the chosen parts, with 'masterClassifier' right after 'classifiers'. */
function documentCopySteps(context: TaskContext, task: Task, actor: CommandActor): TaskStep[] {
  const params = task.params as unknown as DocumentCopyParams;
  const copy: DocumentCopyContext = {
    ...pick(context),
    actor,
    taskId: task.id,
    organizationId: task.organizationId,
    sourceDocumentId: params.sourceDocumentId,
    targetDocumentId: params.targetDocumentId,
    options: params,
    ids: new Map(),
  };
  const steps: TaskStep[] = chosenCopySteps(params).map((name) => ({
    name,
    run: async () => {
      const step = documentCopyStep(name);
      if (!step) throw new Error('COPY_STEP_NOT_AVAILABLE');
      await step(copy);
    },
  }));
  if (params.classifiers) {
    const after = steps.findIndex((step) => step.name === 'classifiers') + 1;
    steps.splice(after, 0, { name: 'masterClassifier', run: () => copyMasterClassifier(copy) });
  }
  return steps;
}

/** Only the context's own parts: a gateway passes its whole Fastify instance. */
const pick = ({ db, store, commands, config, log }: TaskContext): TaskContext => ({ db, store, commands, config, log });

export const documentCopyTask: TaskDefinition = {
  type: DOCUMENT_COPY,
  policy: COPY_TASK_POLICY,
  steps: documentCopySteps,
  // A copy whose attempt failed after its last write is SUCCESS when the copy holds every chosen part.
  isComplete: documentCopyIsComplete,
};

/**
 * Starts copying the chosen parts of `options.sourceDocumentId` into the new document
 * `targetDocumentId` (made by the caller's request): records the task and enqueues its job for
 * the worker. Answers the task id to poll.
 */
export function startDocumentCopy(
  app: FastifyInstance,
  caller: Caller,
  organizationId: string,
  targetDocumentId: string,
  options: DocumentCopyOptions,
): Promise<string> {
  const { auth, actor } = caller;
  return app.tasks.start(documentCopyTask, {
    type: DOCUMENT_COPY,
    organizationId,
    userId: auth.userId,
    occupationId: auth.occupationId,
    documentId: targetDocumentId,
    params: { ...options, targetDocumentId },
    // The request that asked caused every event of the copy.
    actor: { ...actor, causationId: actor.correlationId },
  });
}
