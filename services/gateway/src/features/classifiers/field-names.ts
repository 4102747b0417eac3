import { type ClassifierEvent, type ClassifierState, classifierDecider, classifierStream, foldEvents } from '@eelarve/domain';
import { DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { CommandActor } from '../../infrastructure/commands';
import { release, reservationStream, reserve } from '../users/reservations';
import { fieldNameTaken } from './queries';

/** A classifier as its own stream holds it (the source of truth, ahead of the read models). */
export async function classifierState(app: FastifyInstance, classifierId: string): Promise<ClassifierState> {
  return foldEvents(classifierDecider, (await app.store.readStream(classifierStream(classifierId))) as unknown as ClassifierEvent[]);
}

// Field names are unique among the document's classifiers, also under concurrent requests: the
// name is claimed in a reservation stream before the classifier's own command runs.

const fieldNameStream = (documentId: string, fieldName: string) => reservationStream('classifierfield', `${documentId}:${fieldName.toLowerCase()}`);

export async function reserveFieldName(app: FastifyInstance, actor: CommandActor, documentId: string, fieldName: string, classifierId: string): Promise<void> {
  if (await fieldNameTaken(app.db, documentId, fieldName, classifierId)) throw new DomainError('FIELD_NAME_NOT_UNIQUE');
  await reserve(app.store, {
    stream: fieldNameStream(documentId, fieldName),
    ownerId: classifierId,
    actor,
    conflict: 'FIELD_NAME_NOT_UNIQUE',
    holds: async (ownerId) => {
      const state = await classifierState(app, ownerId);
      return state.status === 'active' && state.fieldName.toLowerCase() === fieldName.toLowerCase();
    },
  });
}

export const releaseFieldName = (app: FastifyInstance, actor: CommandActor, documentId: string, fieldName: string, classifierId: string) =>
  release(app.store, { stream: fieldNameStream(documentId, fieldName), ownerId: classifierId, actor });

/** Runs `work` with the field name claimed; gives the claim back if the work fails. */
export async function withFieldName<T>(
  app: FastifyInstance,
  actor: CommandActor,
  claim: { documentId: string; fieldName: string; classifierId: string; keep: boolean },
  work: () => Promise<T>,
): Promise<T> {
  if (claim.keep) return work();
  await reserveFieldName(app, actor, claim.documentId, claim.fieldName, claim.classifierId);
  try {
    return await work();
  } catch (error) {
    await releaseFieldName(app, actor, claim.documentId, claim.fieldName, claim.classifierId);
    throw error;
  }
}
