import { DomainError } from '@eelarve/shared';
import type { Decider } from '../decider';
import type { UserEvent } from './events';

export type UserState = { status: 'none' } | { status: 'active'; email: string; confirmed: boolean; hasPassword: boolean };

export type UserCommand =
  | { type: 'RegisterUser'; userId: string; organizationId: string; name: string; email: string; now: Date }
  | { type: 'SetPassword'; userId: string }
  | { type: 'ConfirmEmail'; userId: string; now: Date };

export const userStream = (userId: string) => `user-${userId}`;

function register(command: Extract<UserCommand, { type: 'RegisterUser' }>, state: UserState): UserEvent[] {
  if (state.status !== 'none') throw new DomainError('CONCURRENT_MODIFICATION', 'user already exists');
  const { userId, organizationId, name } = command;
  return [{ type: 'UserRegistered', data: { userId, organizationId, name, email: command.email.toLowerCase(), registeredAt: command.now.toISOString() } }];
}

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  streamName: (command) => userStream(command.userId),
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered':
        return { status: 'active', email: event.data.email, confirmed: false, hasPassword: false };
      case 'UserPasswordSet':
        return state.status === 'active' ? { ...state, hasPassword: true } : state;
      case 'UserEmailConfirmed':
        return state.status === 'active' ? { ...state, confirmed: true } : state;
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RegisterUser':
        return register(command, state);
      case 'SetPassword':
        if (state.status !== 'active') throw new DomainError('USER_NOT_FOUND');
        return [{ type: 'UserPasswordSet', data: { userId: command.userId } }];
      case 'ConfirmEmail':
        if (state.status !== 'active') throw new DomainError('USER_NOT_FOUND');
        if (state.confirmed) return [];
        return [{ type: 'UserEmailConfirmed', data: { userId: command.userId, confirmedAt: command.now.toISOString() } }];
    }
  },
};
