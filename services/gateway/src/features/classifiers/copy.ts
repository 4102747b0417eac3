import { randomUUID } from 'node:crypto';
import { classifierCopyCommands, classifierDecider, type SourceClassifier } from '@eelarve/domain';
import type { GlobalPosition } from '@eelarve/eventstore';
import { executeCommand } from '../../infrastructure/commands';
import type { DocumentCopyContext } from '../documents/copy';
import { classifierState, withFieldName } from './field-names';
import { listClassifiers } from './queries';

/**
 * Document copy step 'classifiers': every classifier of the source document with its items, code
 * settings, groupings and display order. Source and copy ids land in `context.ids` for the
 * master-classifier and schemes steps. Each classifier is one append (its creation and all its
 * items), after its field name is claimed in the new document.
 */
export async function copyClassifiers(context: DocumentCopyContext): Promise<void> {
  const { app, actor } = context;
  const rows = await listClassifiers(app.db, { documentId: context.sourceDocumentId }, false);
  const sources: SourceClassifier[] = [];
  for (const row of rows) {
    // The stream, not the read model, so the copy holds exactly what was decided.
    const state = await classifierState(app, row.id);
    if (state.status === 'active') sources.push({ classifierId: row.id, state, displayOrder: row.displayOrder });
  }
  const target = { documentId: context.targetDocumentId, organizationId: context.organizationId };
  let last: GlobalPosition | null = null;
  for (const command of classifierCopyCommands(sources, target, context.ids, randomUUID)) {
    const claim = { documentId: target.documentId, fieldName: command.definition.fieldName, classifierId: command.classifierId };
    last = (await withFieldName(app, actor, claim, () => executeCommand(app.store, classifierDecider, command, actor))).position ?? last;
  }
  // The task reports SUCCESS only once the classifiers tab shows the copies.
  if (last) await app.projections.waitForPosition(['classifiers'], last, app.config.readYourWritesTimeoutMs);
}
