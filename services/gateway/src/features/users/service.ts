import { randomUUID } from 'node:crypto';
import { normaliseEmail, type UserCommand, userDecider } from '@eelarve/domain';
import { findMember, findUserById, heldOccupations, listMemberNames, listMembers, occupationsOfUsers } from '@eelarve/projections/accounts/queries';
import { DomainError, type User, type userInputSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { CommandContext } from '../../infrastructure/command-runner';
import { readModels } from '../../infrastructure/database';
import type { AuthContext, Caller } from '../../types';
import { notifyOwner } from '../mail/notify-owner';
import { authMethodsRemovedMail } from '../mail/templates';
import { actsAsOrganizationAdmin, isPlatformAdmin, organizationInScope } from '../permissions/authorize';
import { sendRegistrationConfirmation } from '../registration/confirmation';
import { clearAuthMethods } from './auth-methods';
import { releaseEmailOf, withEmail } from './email-reservation';
import { dryRun } from './reservations';
import { toUser } from './responses';
import { signInFacts } from './sign-in-facts';

type UserInput = z.output<typeof userInputSchema>;

/** The users screen reads accounts; the organisations list shows the number of users. */
const READ_MODELS = ['accounts', 'organizations'] as const;

/**
 * Users of an organisation (spec 1, section 5). The routes declare USER_VIEW/USER_ADMIN (or
 * IS_ADMIN); each function first keeps the caller inside their organisation (404 otherwise).
 */
export function userService(app: FastifyInstance) {
  const read = () => readModels(app.db);
  const run = (caller: Caller, command: UserCommand | ((context: CommandContext) => UserCommand)) =>
    app.commands.run({ decider: userDecider, command, actor: caller.actor, readModels: READ_MODELS });

  /** Only an administrator may change a user's e-mail (spec 1, section 5). */
  const mayChangeEmail = async (auth: AuthContext, organizationId: string) =>
    isPlatformAdmin(auth) || (await actsAsOrganizationAdmin(app, auth, organizationId));

  /** A user of this organisation that it may edit or delete: 404 for strangers, UNSUITABLE_USER for visiting members. */
  async function ownUser(organizationId: string, userId: string) {
    const user = await findMember(read(), organizationId, userId);
    if (!user) throw new DomainError('USER_NOT_FOUND');
    if (user.organization_id !== organizationId) throw new DomainError('UNSUITABLE_USER', 'the user was registered in another organisation');
    return user;
  }

  return {
    async list(caller: Caller, organizationId: string): Promise<User[]> {
      await organizationInScope(app, caller.auth, organizationId);
      const users = await listMembers(read(), organizationId);
      const ids = users.map((user) => user.id);
      const [occupations, facts] = await Promise.all([occupationsOfUsers(read(), ids), signInFacts(app.db, ids)]);
      return users.map((user) => toUser(user, organizationId, occupations, facts));
    },

    async names(caller: Caller, organizationId: string) {
      await organizationInScope(app, caller.auth, organizationId);
      return listMemberNames(read(), organizationId);
    },

    async create(caller: Caller, organizationId: string, input: UserInput) {
      await organizationInScope(app, caller.auth, organizationId);
      // The id is the e-mail claim's owner, so it is made before the command runs.
      const userId = randomUUID();
      const { name, email } = input;
      const result = await withEmail(app, { email, userId, actor: caller.actor }, () =>
        run(caller, ({ now }) => ({ type: 'RegisterUser', userId, organizationId, name, email, now })),
      );
      await sendRegistrationConfirmation(app, { userId, email: normaliseEmail(email), name, organizationId });
      return result;
    },

    async update(caller: Caller, organizationId: string, userId: string, input: UserInput) {
      await organizationInScope(app, caller.auth, organizationId);
      const user = await ownUser(organizationId, userId);
      if (normaliseEmail(input.email) !== user.email && !(await mayChangeEmail(caller.auth, organizationId))) {
        throw new DomainError('INSUFFICIENT_PERMISSIONS', 'only an administrator may change a user’s e-mail');
      }
      const { admin } = await heldOccupations(read(), userId);
      const command: UserCommand = { type: 'UpdateUser', userId, name: input.name, email: input.email, holdsAdminOccupation: admin };
      // USER_NOT_MODIFIABLE and friends before the e-mail is claimed.
      await dryRun(app.store, userDecider, command);
      // Claimed also when the address looks unchanged: the read model may lag behind a change.
      return withEmail(app, { email: input.email, userId, actor: caller.actor }, () => run(caller, command));
    },

    async remove(caller: Caller, organizationId: string, userId: string) {
      await organizationInScope(app, caller.auth, organizationId);
      await ownUser(organizationId, userId);
      const held = await heldOccupations(read(), userId);
      const result = await run(caller, { type: 'DeleteUser', userId, holdsOccupation: held.any, holdsAdminOccupation: held.admin });
      await releaseEmailOf(app, result, { userId, actor: caller.actor });
      await clearAuthMethods(app.db, userId);
      return result;
    },

    /** Spec 1, section 6: a platform administrator removes every way a user signs in (not their own). */
    async removeAuthMethods(caller: Caller, userId: string) {
      if (caller.auth.userId === userId) throw new DomainError('UNSUITABLE_USER', 'not your own authentication methods');
      if (!(await findUserById(read(), userId))) throw new DomainError('USER_NOT_FOUND');
      // The event first: a failure after it only leaves rows that a repeated call removes.
      const result = await run(caller, { type: 'RemoveAuthMethods', userId });
      await clearAuthMethods(app.db, userId);
      await notifyOwner(app, userId, authMethodsRemovedMail);
      return result;
    },
  };
}
