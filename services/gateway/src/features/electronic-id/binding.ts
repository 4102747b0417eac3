import { type UserCommand, userDecider } from '@eelarve/domain';
import type { FastifyInstance } from 'fastify';
import type { CommandContext } from '../../infrastructure/command-runner';
import type { CommandActor } from '../../infrastructure/commands';
import type { AppDatabase } from '../../infrastructure/database';
import type { Caller } from '../../types';
import { bindPersonalCode, removeElectronicId } from './bindings';
import { hashPersonalCode } from './keys';

/** Read models the page after a binding or confirmation reads (me, users). */
const READ_MODELS = ['accounts'] as const;

export interface BindOptions {
  /** Database work that must commit with the binding (consuming a mailed token). */
  consume?: (trx: AppDatabase) => Promise<void>;
  /** Following a mailed link proves the address: the e-mail is confirmed too. */
  confirmEmail?: boolean;
}

/**
 * Binding and unbinding the electronic ID: the personal code's hash lives in an operational table,
 * the fact in the user's stream. The table row is written first and the events last, in one
 * transaction, so a refused binding (or a failed append) leaves neither. The events are appended
 * without waiting inside the transaction; the answer waits for the read models once it committed.
 */
export function electronicIdBinding(app: FastifyInstance) {
  const runUserCommand = (actor: CommandActor, command: UserCommand | ((context: CommandContext) => UserCommand)) =>
    // No read models here: the caller waits once the transaction committed.
    app.commands.run({ decider: userDecider, command, actor, readModels: [] });

  return {
    async bind(userId: string, personalCode: string, actor: CommandActor, options: BindOptions = {}): Promise<void> {
      const hash = await hashPersonalCode(app.db, personalCode);
      const position = await app.db.transaction().execute(async (trx) => {
        await options.consume?.(trx);
        const changed = await bindPersonalCode(trx, userId, hash);
        let last: string | null = null;
        if (changed) last = (await runUserCommand(actor, { type: 'BindElectronicId', userId })).position;
        if (options.confirmEmail) last = (await runUserCommand(actor, ({ now }) => ({ type: 'ConfirmEmail', userId, now }))).position ?? last;
        return last;
      });
      await app.commands.awaitReadModels(READ_MODELS, position);
    },

    /** Removes the caller's own binding (PUT api/auth/unbind). */
    async unbind(caller: Caller): Promise<void> {
      const { userId } = caller.auth;
      const position = await app.db.transaction().execute(async (trx) => {
        await removeElectronicId(trx, userId);
        return (await runUserCommand(caller.actor, { type: 'UnbindElectronicId', userId })).position;
      });
      await app.commands.awaitReadModels(READ_MODELS, position);
    },
  };
}
