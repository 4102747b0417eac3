import { DomainError, type LocaleCode } from '@eelarve/shared';
import type { Decider } from '../decider';
import type { UserEvent } from './events';

export interface ActiveUser {
  status: 'active';
  organizationId: string;
  name: string;
  email: string;
  confirmed: boolean;
  hasPassword: boolean;
  mfaEnabled: boolean;
  electronicIdBound: boolean;
  language: LocaleCode | null;
}

export type UserState = { status: 'none' } | ActiveUser | { status: 'deleted' };

export type UserCommand =
  | { type: 'RegisterUser'; userId: string; organizationId: string; name: string; email: string; now: Date }
  /**
   * An administrator edits the user. `holdsAdminOccupation` comes from the read models: a user
   * with an ADMIN occupation cannot be edited (spec 1, section 6).
   */
  | { type: 'UpdateUser'; userId: string; name: string; email: string; holdsAdminOccupation: boolean }
  /** `holdsOccupation` / `holdsAdminOccupation` come from the read models (spec 1, section 6). */
  | { type: 'DeleteUser'; userId: string; holdsOccupation: boolean; holdsAdminOccupation: boolean }
  | { type: 'SetPassword'; userId: string }
  | { type: 'ConfirmEmail'; userId: string; now: Date }
  | { type: 'EnableMfa'; userId: string }
  | { type: 'DisableMfa'; userId: string }
  | { type: 'BindElectronicId'; userId: string }
  | { type: 'UnbindElectronicId'; userId: string }
  | { type: 'RemoveAuthMethods'; userId: string }
  | { type: 'SetLanguage'; userId: string; language: LocaleCode }
  /** The user's own e-mail change; uniqueness is enforced by the e-mail reservation stream. */
  | { type: 'ChangeEmail'; userId: string; email: string };

export const userStream = (userId: string) => `user-${userId}`;

/** E-mails are compared and stored lower-case: unique case-insensitively (spec 1, section 5). */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

type Of<T extends UserCommand['type']> = Extract<UserCommand, { type: T }>;

function active(state: UserState): ActiveUser {
  if (state.status !== 'active') throw new DomainError('USER_NOT_FOUND');
  return state;
}

function register(command: Of<'RegisterUser'>, state: UserState): UserEvent[] {
  if (state.status !== 'none') throw new DomainError('CONCURRENT_MODIFICATION', 'user already exists');
  const { userId, organizationId, name } = command;
  return [{ type: 'UserRegistered', data: { userId, organizationId, name, email: normaliseEmail(command.email), registeredAt: command.now.toISOString() } }];
}

function update(command: Of<'UpdateUser'>, state: UserState): UserEvent[] {
  const user = active(state);
  if (command.holdsAdminOccupation) throw new DomainError('USER_NOT_MODIFIABLE');
  const email = normaliseEmail(command.email);
  if (user.name === command.name && user.email === email) return [];
  return [{ type: 'UserUpdated', data: { userId: command.userId, name: command.name, email } }];
}

function remove(command: Of<'DeleteUser'>, state: UserState): UserEvent[] {
  const user = active(state);
  if (command.holdsAdminOccupation) throw new DomainError('USER_NOT_MODIFIABLE');
  if (command.holdsOccupation) throw new DomainError('USER_HAS_OCCUPATION');
  return [{ type: 'UserDeleted', data: { userId: command.userId, organizationId: user.organizationId } }];
}

function confirmEmail(command: Of<'ConfirmEmail'>, state: UserState): UserEvent[] {
  if (active(state).confirmed) return [];
  return [{ type: 'UserEmailConfirmed', data: { userId: command.userId, confirmedAt: command.now.toISOString() } }];
}

/** Enabling again records a new secret (the user re-ran the setup); disabling twice is a no-op. */
function setMfa(command: Of<'EnableMfa' | 'DisableMfa'>, state: UserState): UserEvent[] {
  const user = active(state);
  if (command.type === 'EnableMfa') return [{ type: 'UserMfaEnabled', data: { userId: command.userId } }];
  return user.mfaEnabled ? [{ type: 'UserMfaDisabled', data: { userId: command.userId } }] : [];
}

/** Binding again replaces the personal code; unbinding twice is a no-op. */
function setElectronicId(command: Of<'BindElectronicId' | 'UnbindElectronicId'>, state: UserState): UserEvent[] {
  const user = active(state);
  if (command.type === 'BindElectronicId') return [{ type: 'UserElectronicIdBound', data: { userId: command.userId } }];
  return user.electronicIdBound ? [{ type: 'UserElectronicIdUnbound', data: { userId: command.userId } }] : [];
}

function removeAuthMethods(command: Of<'RemoveAuthMethods'>, state: UserState): UserEvent[] {
  active(state);
  // Always recorded: the operational rows are removed whatever the flags say, and the audit trail shows who did it.
  return [{ type: 'UserAuthMethodsRemoved', data: { userId: command.userId } }];
}

function setLanguage(command: Of<'SetLanguage'>, state: UserState): UserEvent[] {
  if (active(state).language === command.language) return [];
  return [{ type: 'UserLanguageSet', data: { userId: command.userId, language: command.language } }];
}

function changeEmail(command: Of<'ChangeEmail'>, state: UserState): UserEvent[] {
  const email = normaliseEmail(command.email);
  if (active(state).email === email) return [];
  return [{ type: 'UserEmailChanged', data: { userId: command.userId, email } }];
}

function evolveActive(user: ActiveUser, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return user;
    case 'UserPasswordSet':
      return { ...user, hasPassword: true };
    case 'UserEmailConfirmed':
      return { ...user, confirmed: true };
    case 'UserUpdated':
      return { ...user, name: event.data.name, email: event.data.email };
    case 'UserEmailChanged':
      return { ...user, email: event.data.email };
    case 'UserDeleted':
      return { status: 'deleted' };
    case 'UserMfaEnabled':
      return { ...user, mfaEnabled: true };
    case 'UserMfaDisabled':
      return { ...user, mfaEnabled: false };
    case 'UserElectronicIdBound':
      return { ...user, electronicIdBound: true };
    case 'UserElectronicIdUnbound':
      return { ...user, electronicIdBound: false };
    case 'UserAuthMethodsRemoved':
      return { ...user, hasPassword: false, mfaEnabled: false, electronicIdBound: false };
    case 'UserLanguageSet':
      return { ...user, language: event.data.language };
  }
}

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  streamName: (command) => userStream(command.userId),
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    if (event.type === 'UserRegistered') {
      const { organizationId, name, email } = event.data;
      return {
        status: 'active',
        organizationId,
        name,
        email,
        confirmed: false,
        hasPassword: false,
        mfaEnabled: false,
        electronicIdBound: false,
        language: null,
      };
    }
    return state.status === 'active' ? evolveActive(state, event) : state;
  },
  decide(command, state) {
    switch (command.type) {
      case 'RegisterUser':
        return register(command, state);
      case 'UpdateUser':
        return update(command, state);
      case 'DeleteUser':
        return remove(command, state);
      case 'SetPassword':
        active(state);
        return [{ type: 'UserPasswordSet', data: { userId: command.userId } }];
      case 'ConfirmEmail':
        return confirmEmail(command, state);
      case 'EnableMfa':
      case 'DisableMfa':
        return setMfa(command, state);
      case 'BindElectronicId':
      case 'UnbindElectronicId':
        return setElectronicId(command, state);
      case 'RemoveAuthMethods':
        return removeAuthMethods(command, state);
      case 'SetLanguage':
        return setLanguage(command, state);
      case 'ChangeEmail':
        return changeEmail(command, state);
    }
  },
};
