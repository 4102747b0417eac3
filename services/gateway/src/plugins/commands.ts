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
