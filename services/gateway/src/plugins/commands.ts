import type { Decider, DomainEvent } from '@eelarve/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type CommandActor, type CommandOutcome, executeCommand } from '../infrastructure/commands';

export function actorOf(request: FastifyRequest): CommandActor {
  return {
    correlationId: request.id,
    userId: request.auth?.userId ?? null,
    occupationId: request.auth?.occupationId ?? null,
    organizationId: request.auth?.organizationId ?? null,
  };
}

/**
 * Runs a command and, before the response goes out, waits (bounded) until the read models the
 * caller's next screen reads have applied it: a user always sees their own change.
 */
export async function runCommand<Command, Event extends DomainEvent, State>(
  app: FastifyInstance,
  decider: Decider<Command, Event, State>,
  command: Command,
  actor: CommandActor,
  readModels: readonly string[],
): Promise<CommandOutcome<Event, State>> {
  const outcome = await executeCommand(app.store, decider, command, actor);
  if (outcome.position) await app.projections.waitForPosition(readModels, outcome.position, app.config.readYourWritesTimeoutMs);
  return outcome;
}
