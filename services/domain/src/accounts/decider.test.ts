import { DomainError } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { givenFor } from '../testing';
import { foldEvents } from '../decider';
import { type UserCommand, userDecider } from './decider';
import type { UserEvent } from './events';

const userId = '3f0e5c1a-1b7e-4d8a-9c4e-2f7d6b1a0c11';
const organizationId = '6c1b8e8e-3a43-4d55-9d36-5b7f1d2b0c01';
const now = new Date('2026-01-01T00:00:00Z');

const given = givenFor<UserCommand, UserEvent, ReturnType<typeof userDecider.initialState>>(userDecider);

function expectCode(run: () => unknown, code: string) {
  expect(run).toThrowError(DomainError);
  try {
    run();
  } catch (error) {
    expect((error as DomainError).code).toBe(code);
  }
}

const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId, organizationId, name: 'Mari Maasikas', email: 'mari@example.com', registeredAt: now.toISOString() },
};
const deleted: UserEvent = { type: 'UserDeleted', data: { userId, organizationId } };

describe('user decider: registration and administration', () => {
  it('registers with the e-mail lower-cased and trimmed', () => {
    const events = given([]).when({ type: 'RegisterUser', userId, organizationId, name: 'Mari Maasikas', email: ' Mari@Example.COM ', now })();
    expect(events).toEqual([registered]);
  });

  it('refuses to register the same id twice', () => {
    expectCode(given([registered]).when({ type: 'RegisterUser', userId, organizationId, name: 'X', email: 'x@example.com', now }), 'CONCURRENT_MODIFICATION');
  });

  it('updates name and e-mail', () => {
    const events = given([registered]).when({ type: 'UpdateUser', userId, name: 'Mari Mets', email: 'Mari.Mets@example.com', holdsAdminOccupation: false })();
    expect(events).toEqual([{ type: 'UserUpdated', data: { userId, name: 'Mari Mets', email: 'mari.mets@example.com' } }]);
  });

  it('records nothing when an update changes nothing (e-mail compared case-insensitively)', () => {
    expect(given([registered]).when({ type: 'UpdateUser', userId, name: 'Mari Maasikas', email: 'MARI@example.com', holdsAdminOccupation: false })()).toEqual(
      [],
    );
  });

  it('refuses to edit a user holding an admin occupation', () => {
    expectCode(
      given([registered]).when({ type: 'UpdateUser', userId, name: 'Other', email: 'mari@example.com', holdsAdminOccupation: true }),
      'USER_NOT_MODIFIABLE',
    );
  });

  it('refuses to delete a user holding an admin occupation, before the occupation rule', () => {
    expectCode(given([registered]).when({ type: 'DeleteUser', userId, holdsOccupation: true, holdsAdminOccupation: true }), 'USER_NOT_MODIFIABLE');
  });

  it('refuses to delete a user holding an occupation', () => {
    expectCode(given([registered]).when({ type: 'DeleteUser', userId, holdsOccupation: true, holdsAdminOccupation: false }), 'USER_HAS_OCCUPATION');
  });

  it('deletes, after which every command finds no user', () => {
    const events = given([registered]).when({ type: 'DeleteUser', userId, holdsOccupation: false, holdsAdminOccupation: false })();
    expect(events).toEqual([deleted]);
    const after = given([registered, deleted]);
    expectCode(after.when({ type: 'UpdateUser', userId, name: 'X', email: 'x@example.com', holdsAdminOccupation: false }), 'USER_NOT_FOUND');
    expectCode(after.when({ type: 'DeleteUser', userId, holdsOccupation: false, holdsAdminOccupation: false }), 'USER_NOT_FOUND');
    expectCode(after.when({ type: 'SetPassword', userId }), 'USER_NOT_FOUND');
    expectCode(after.when({ type: 'ChangeEmail', userId, email: 'y@example.com' }), 'USER_NOT_FOUND');
  });

  it('finds no user that was never registered', () => {
    expectCode(given([]).when({ type: 'EnableMfa', userId }), 'USER_NOT_FOUND');
    expectCode(given([]).when({ type: 'ConfirmEmail', userId, now }), 'USER_NOT_FOUND');
  });
});

describe('user decider: authentication methods and settings', () => {
  it('sets a password and confirms the e-mail once', () => {
    expect(given([registered]).when({ type: 'SetPassword', userId })()).toEqual([{ type: 'UserPasswordSet', data: { userId } }]);
    const confirmed: UserEvent = { type: 'UserEmailConfirmed', data: { userId, confirmedAt: now.toISOString() } };
    expect(given([registered]).when({ type: 'ConfirmEmail', userId, now })()).toEqual([confirmed]);
    expect(given([registered, confirmed]).when({ type: 'ConfirmEmail', userId, now })()).toEqual([]);
  });

  it('enables MFA (again on re-setup) and disables it only when enabled', () => {
    const enabled: UserEvent = { type: 'UserMfaEnabled', data: { userId } };
    expect(given([registered]).when({ type: 'EnableMfa', userId })()).toEqual([enabled]);
    expect(given([registered, enabled]).when({ type: 'EnableMfa', userId })()).toEqual([enabled]);
    expect(given([registered, enabled]).when({ type: 'DisableMfa', userId })()).toEqual([{ type: 'UserMfaDisabled', data: { userId } }]);
    expect(given([registered]).when({ type: 'DisableMfa', userId })()).toEqual([]);
  });

  it('binds the electronic ID and unbinds it only when bound', () => {
    const bound: UserEvent = { type: 'UserElectronicIdBound', data: { userId } };
    expect(given([registered]).when({ type: 'BindElectronicId', userId })()).toEqual([bound]);
    expect(given([registered, bound]).when({ type: 'UnbindElectronicId', userId })()).toEqual([{ type: 'UserElectronicIdUnbound', data: { userId } }]);
    expect(given([registered]).when({ type: 'UnbindElectronicId', userId })()).toEqual([]);
  });

  it('removes all authentication methods, clearing every flag', () => {
    const history: UserEvent[] = [
      registered,
      { type: 'UserPasswordSet', data: { userId } },
      { type: 'UserMfaEnabled', data: { userId } },
      { type: 'UserElectronicIdBound', data: { userId } },
    ];
    const removed = given(history).when({ type: 'RemoveAuthMethods', userId })();
    expect(removed).toEqual([{ type: 'UserAuthMethodsRemoved', data: { userId } }]);
    const state = foldEvents(userDecider, [...history, ...removed]);
    expect(state).toMatchObject({ status: 'active', hasPassword: false, mfaEnabled: false, electronicIdBound: false });
    // Nothing left to disable.
    expect(given([...history, ...removed]).when({ type: 'DisableMfa', userId })()).toEqual([]);
  });

  it('sets the language, recording nothing when unchanged', () => {
    const set: UserEvent = { type: 'UserLanguageSet', data: { userId, language: 'en' } };
    expect(given([registered]).when({ type: 'SetLanguage', userId, language: 'en' })()).toEqual([set]);
    expect(given([registered, set]).when({ type: 'SetLanguage', userId, language: 'en' })()).toEqual([]);
  });

  it('changes the e-mail lower-cased, recording nothing when unchanged', () => {
    expect(given([registered]).when({ type: 'ChangeEmail', userId, email: 'New@Example.com' })()).toEqual([
      { type: 'UserEmailChanged', data: { userId, email: 'new@example.com' } },
    ]);
    expect(given([registered]).when({ type: 'ChangeEmail', userId, email: 'MARI@example.com' })()).toEqual([]);
  });
});
