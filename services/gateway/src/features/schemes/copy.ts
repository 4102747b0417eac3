import { randomUUID } from 'node:crypto';
import { type SchemeEvent, documentSchemesStream, foldEvents, schemeCopyCommand, schemeDecider } from '@eelarve/domain';
import { executeCommand } from '../../infrastructure/commands';
import type { DocumentCopyContext } from '../documents/copy';
import { SCHEME_READ_MODELS } from './queries';

/**
 * Document copy step 'schemes' (runs after 'classifiers', whose ids it translates): the source
 * document's schemes with their sub-budgets and classifier preselections, as one append to the
 * new document's schemes stream.
 */
export async function copySchemes(context: DocumentCopyContext): Promise<void> {
  const { app, actor } = context;
  const events = (await app.store.readStream(documentSchemesStream(context.sourceDocumentId))) as unknown as SchemeEvent[];
  const source = foldEvents(schemeDecider, events);
  if (source.schemes.size === 0) return;
  const command = schemeCopyCommand(source, { documentId: context.targetDocumentId, organizationId: context.organizationId }, context.ids, randomUUID);
  const outcome = await executeCommand(app.store, schemeDecider, command, actor);
  if (outcome.position) await app.projections.waitForPosition(SCHEME_READ_MODELS, outcome.position, app.config.readYourWritesTimeoutMs);
}
