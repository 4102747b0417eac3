import { type ClassifierEvent, type ClassifierState, classifierDecider, classifierStream, foldEvents } from '@eelarve/domain';
import { DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { CommandActor, CommandOutcome } from '../../infrastructure/commands';
import { readModels } from '../../infrastructure/database';
import { reservationStream, settle, type UniqueValueKind, withClaim } from '../users/reservations';

/** A classifier as its own stream holds it (the source of truth, ahead of the read models). */
export async function classifierState(app: FastifyInstance, classifierId: string): Promise<ClassifierState> {
  return foldEvents(classifierDecider, (await app.store.readStream(classifierStream(classifierId))) as unknown as ClassifierEvent[]);
}

// Field names are unique among the document's classifiers, case-insensitively, also under
// concurrent requests: the name is claimed in a reservation stream while the classifier's own
// command runs (see users/reservations.ts).

const fieldNameOf = (state: ClassifierState | undefined) => (state?.status === 'active' ? state.fieldName : null);

export function fieldNames(app: FastifyInstance, documentId: string): UniqueValueKind {
  const carries = async (classifierId: string, fieldName: string) => fieldNameOf(await classifierState(app, classifierId))?.toLowerCase() === fieldName.toLowerCase();
  return {
    stream: (fieldName) => reservationStream('classifierfield', `${documentId}:${fieldName.toLowerCase()}`),
    conflict: 'FIELD_NAME_NOT_UNIQUE',
    carries,
    // Classifiers made before claims existed: found in the read model, confirmed by their stream.
    async assertNoUnclaimedHolder(fieldName, classifierId) {
      const rows = await readModels(app.db)
        .selectFrom('classifiers')
        .select('id')
        .where('document_id', '=', documentId)
        .where((eb) => eb(eb.fn('lower', ['field_name']), '=', fieldName.toLowerCase()))
        .where('id', '!=', classifierId)
        .execute();
      for (const row of rows) {
        if (await carries(row.id, fieldName)) throw new DomainError('FIELD_NAME_NOT_UNIQUE');
      }
    },
  };
}

/**
 * Runs the classifier's command (create, copy or update) with the field name claimed
 * (FIELD_NAME_NOT_UNIQUE if another classifier of the document holds it); afterwards the field
 * name the classifier carried before is released. Claimed also when the name looks unchanged:
 * the read model may lag behind a rename.
 */
export function withFieldName<Event>(
  app: FastifyInstance,
  actor: CommandActor,
  claim: { documentId: string; fieldName: string; classifierId: string },
  work: () => Promise<CommandOutcome<Event, ClassifierState>>,
): Promise<CommandOutcome<Event, ClassifierState>> {
  return withClaim(app.store, fieldNames(app, claim.documentId), { value: claim.fieldName, ownerId: claim.classifierId, actor, formerValue: fieldNameOf }, work);
}

/** After a delete: frees the field name the classifier had when the delete was decided. */
export async function releaseFieldNameOf(app: FastifyInstance, actor: CommandActor, outcome: CommandOutcome<unknown, ClassifierState>, owner: { documentId: string; classifierId: string }): Promise<void> {
  const fieldName = fieldNameOf(outcome.before);
  if (fieldName !== null) await settle(app.store, fieldNames(app, owner.documentId), { value: fieldName, ownerId: owner.classifierId, actor });
}
