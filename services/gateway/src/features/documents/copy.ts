import { DOCUMENT_COPY_PARTS, type DocumentCopyOptions } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { CommandActor } from '../../infrastructure/commands';
import { createRegistry } from '../../infrastructure/registry';

/**
 * Document copy (spec 2, sections 3-5): the new document is created by the request itself; the
 * rest runs as a background task of named steps (GET api/task/{taskId}).
 *
 * Other features plug their part in with `registerDocumentCopyStep(name, fn)` (classifiers/copy.ts
 * and schemes/copy.ts are registered by their routes):
 * - 'classifiers'  (option `classifiers`): classifiers and their items; put every source id
 *                  -> new id into `context.ids` (classifiers and items) so later steps translate;
 * - 'schemes'      (option `schemes`, needs classifiers): schemes with sub-budgets and preselections;
 * - 'permissions'  (option `permissions`): per-occupation resource permissions;
 * - 'reportViews'  (option `reportViews`, needs schemes): general and personal report views.
 * Steps run in that order, each only when its option is chosen. A chosen option without a
 * registered step is refused with COPY_PART_NOT_AVAILABLE before the document is made (and, should
 * a step vanish meanwhile, fails the task with COPY_STEP_NOT_AVAILABLE): nothing is silently skipped.
 * After the classifiers step the built-in step 'masterClassifier' sets the copy's master
 * classifier to the copy of the source's one (when `context.ids` maps it).
 * A step must be idempotent per target document where it can: a task is not retried
 * automatically, but a failed copy can be deleted and made again.
 */
export const DOCUMENT_COPY_STEPS = DOCUMENT_COPY_PARTS;
export type DocumentCopyStepName = (typeof DOCUMENT_COPY_STEPS)[number];

export interface DocumentCopyContext {
  app: FastifyInstance;
  /** Who asked for the copy; use it (with its correlation id) for every command a step runs. */
  actor: CommandActor;
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
