import { randomUUID } from 'node:crypto';
import { classifierCopyCommands, classifierDecider, type SourceClassifier } from '@eelarve/domain';
import { listClassifiers } from '@eelarve/projections/classifiers/queries';
import { readModels } from '../../infrastructure/database';
import type { DocumentCopyContext } from '../documents/copy';
import { fixCopyIds } from '../tasks/copy-ids';
import { classifierState, withFieldName } from './field-names';

/**
 * Document copy step 'classifiers': every classifier of the source document with its items, code
 * settings, groupings and display order. Source and copy ids land in `context.ids` for the
 * master-classifier and schemes steps. Each classifier is one append (its creation and all its
 * items), after its field name is claimed in the new document. The copies' ids are fixed by the
 * task, so a retried attempt skips the classifiers an earlier one copied.
 */
export async function copyClassifiers(context: DocumentCopyContext): Promise<void> {
  const { actor } = context;
  const rows = await listClassifiers(readModels(context.db), { documentId: context.sourceDocumentId });
  const sources: SourceClassifier[] = [];
  for (const row of rows) {
    // The stream, not the read model, so the copy holds exactly what was decided.
    const state = await classifierState(context, row.id);
    if (state.status === 'active') sources.push({ classifierId: row.id, state, displayOrder: row.display_order });
  }
  const target = { documentId: context.targetDocumentId, organizationId: context.organizationId };
  const drawn = new Map<string, string>();
  const commands = fixCopyIds(classifierCopyCommands(sources, target, drawn, randomUUID), drawn, context.taskId, context.ids);
  let last: string | null = null;
  for (const command of commands) {
    if ((await classifierState(context, command.classifierId)).status !== 'none') continue;
    const claim = { documentId: target.documentId, fieldName: command.definition.fieldName, classifierId: command.classifierId };
    const copied = await withFieldName(context, actor, claim, () => context.commands.run({ decider: classifierDecider, command, actor, readModels: [] }));
    last = copied.position ?? last;
  }
  // The task reports SUCCESS only once the classifiers tab shows the copies (one wait, after the last).
  await context.commands.awaitReadModels(['classifiers'], last);
}
