import { randomUUID } from 'node:crypto';
import { documentSchemesStream, foldEvents, type SchemeEvent, schemeCopyCommand, schemeDecider } from '@eelarve/domain';
import type { DocumentCopyContext } from '../documents/copy';
import type { TaskContext } from '../tasks/context';
import { fixCopyIds } from '../tasks/copy-ids';

/** The copy's schemes tab and sub-budgets read the schemes read model. */
const SCHEME_READ_MODELS = ['schemes'] as const;

async function schemesOf(context: TaskContext, documentId: string) {
  return foldEvents(schemeDecider, (await context.store.readStream(documentSchemesStream(documentId))) as unknown as SchemeEvent[]);
}

/**
 * Document copy step 'schemes' (runs after 'classifiers', whose ids it translates): the source
 * document's schemes with their sub-budgets and classifier preselections, as one append to the
 * new document's schemes stream. Their ids are fixed by the task: when the copy already holds
 * them, an earlier attempt made the append and there is nothing left to do.
 */
export async function copySchemes(context: DocumentCopyContext): Promise<void> {
  const source = await schemesOf(context, context.sourceDocumentId);
  if (source.schemes.size === 0) return;
  const drawn = new Map(context.ids);
  const target = { documentId: context.targetDocumentId, organizationId: context.organizationId };
  const command = fixCopyIds(schemeCopyCommand(source, target, drawn, randomUUID), drawn, context.taskId, context.ids);
  const copied = await schemesOf(context, context.targetDocumentId);
  if (command.schemes.some((scheme) => copied.schemes.has(scheme.schemeId))) return;
  await context.commands.run({ decider: schemeDecider, command, actor: context.actor, readModels: SCHEME_READ_MODELS });
}
