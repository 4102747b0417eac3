import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type CommandRunner, createCommandRunner } from '../infrastructure/command-runner';
import type { CommandActor } from '../infrastructure/commands';
import type { Caller } from '../types';

export function actorOf(request: FastifyRequest): CommandActor {
  const auth = request.optionalAuth;
  return {
    correlationId: request.id,
    userId: auth?.userId ?? null,
    occupationId: auth?.occupationId ?? null,
    organizationId: auth?.organizationId ?? null,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The one command runner (infrastructure/command-runner.ts). */
    commands: CommandRunner;
  }
  interface FastifyRequest {
    /** Who runs a command in this request: copied into every event's metadata. */
    readonly actor: CommandActor;
    /** The signed-in caller and the actor of their commands: what services take first. */
    readonly caller: Caller;
  }
}

/** Offers the command runner to every route, as fastify/demo's decorated plugins do. */
export const commandsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate(
      'commands',
      createCommandRunner({ store: app.store, db: app.db as never, projections: app.projections, readYourWritesTimeoutMs: app.config.readYourWritesTimeoutMs }),
    );
    app.decorateRequest('actor', {
      getter(this: FastifyRequest) {
        return actorOf(this);
      },
    });
    app.decorateRequest('caller', {
      getter(this: FastifyRequest): Caller {
        return { auth: this.auth, actor: actorOf(this) };
      },
    });
  },
  { name: 'commands' },
);

/**
 * @deprecated Transitional: routes move to `app.commands.run` (issue 9); removed once none call it.
 */
export async function runCommand<Command, Event extends import('@eelarve/domain').DomainEvent, State>(
  app: FastifyInstance,
  decider: import('@eelarve/domain').Decider<Command, Event, State>,
  command: Command,
  actor: CommandActor,
  readModels: readonly string[],
): Promise<import('../infrastructure/commands').CommandOutcome<Event, State>> {
  const { executeCommand } = await import('../infrastructure/commands');
  const outcome = await executeCommand(app.store, decider, command, actor);
  if (outcome.position) await app.projections.waitForPosition(readModels, outcome.position, app.config.readYourWritesTimeoutMs);
  return outcome;
}
