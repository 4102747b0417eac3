import { type ClassifierEvent, type ClassifierState, classifierDecider, classifierStream, foldEvents } from '@eelarve/domain';
import { classifiersWithFieldName } from '@eelarve/projections/classifiers/queries';
import { DomainError } from '@eelarve/shared';
import type { CommandActor } from '../../infrastructure/commands';
import { readModels } from '../../infrastructure/database';
import type { TaskContext } from '../tasks/context';
import { reservationStream, settle, type UniqueValueKind, withClaim } from '../users/reservations';

/** What claims need: the event store and the read models. A gateway (`app`) or a task's context. */
type Stores = Pick<TaskContext, 'store' | 'db'>;

/** A classifier as its own stream holds it (the source of truth, ahead of the read models). */
export async function classifierState(stores: Stores, classifierId: string): Promise<ClassifierState> {
  return foldEvents(classifierDecider, (await stores.store.readStream(classifierStream(classifierId))) as unknown as ClassifierEvent[]);
}

// Field names are unique among the document's classifiers, case-insensitively, also under
// concurrent requests: the name is claimed in a reservation stream while the classifier's own
// command runs (see users/reservations.ts).

const fieldNameOf = (state: ClassifierState | undefined) => (state?.status === 'active' ? state.fieldName : null);

export function fieldNames(stores: Stores, documentId: string): UniqueValueKind {
  const carries = async (classifierId: string, fieldName: string) =>
    fieldNameOf(await classifierState(stores, classifierId))?.toLowerCase() === fieldName.toLowerCase();
  return {
    stream: (fieldName) => reservationStream('classifierfield', `${documentId}:${fieldName.toLowerCase()}`),
    conflict: 'FIELD_NAME_NOT_UNIQUE',
    carries,
    // Classifiers made before claims existed: found in the read model, confirmed by their stream.
    async assertNoUnclaimedHolder(fieldName, classifierId) {
      for (const holder of await classifiersWithFieldName(readModels(stores.db), documentId, fieldName, classifierId)) {
        if (await carries(holder, fieldName)) throw new DomainError('FIELD_NAME_NOT_UNIQUE');
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
export function withFieldName<Outcome extends { before?: ClassifierState }>(
  stores: Stores,
  actor: CommandActor,
  claim: { documentId: string; fieldName: string; classifierId: string },
  work: () => Promise<Outcome>,
): Promise<Outcome> {
  return withClaim(
    stores.store,
    fieldNames(stores, claim.documentId),
    { value: claim.fieldName, ownerId: claim.classifierId, actor, formerValue: fieldNameOf },
    work,
  );
}

/** After a delete: frees the field name the classifier had when the delete was decided. */
export async function releaseFieldNameOf(
  stores: Stores,
  actor: CommandActor,
  outcome: { before?: ClassifierState },
  owner: { documentId: string; classifierId: string },
): Promise<void> {
  const fieldName = fieldNameOf(outcome.before);
  if (fieldName !== null) await settle(stores.store, fieldNames(stores, owner.documentId), { value: fieldName, ownerId: owner.classifierId, actor });
}
