import type { Me } from '@eelarve/shared';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ME_QUERY_KEY } from './current-user';
import { ME_DEFAULTS } from './me-fixture';
import { orderOccupations } from './occupations';
import { createUnauthorizedHandler, resetClientState } from './session';
import { isRedirectTarget, postLoginTarget, readExpiredSession, readSession } from './session-storage';

/** Just enough of a browser for the session code: localStorage and location. */
function fakeWindow(pathname: string) {
  const store = new Map<string, string>();
  const localStorage = {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => store.set(key, value),
    removeItem: (key: string) => store.delete(key),
  };
  const location = { pathname, search: '?tab=1', hash: '' };
  Object.assign(globalThis, { window: { localStorage, location } });
  return location;
}

function occupation(id: string, name: string, organizationName: string, types: Me['occupations'][number]['allowedAuthenticationTypes']) {
  return { id, name, type: 'DEFAULT' as const, organizationId: `org-${id}`, organizationName, allowedAuthenticationTypes: types };
}

const me: Me = {
  id: 'u1',
  name: 'Mari',
  email: 'mari@example.ee',
  organizationId: 'org-a',
  organizationName: 'A',
  occupationId: 'a',
  lastOccupationId: 'c',
  occupations: [
    occupation('a', 'Spetsialist', 'Tartu', ['LOGIN']),
    occupation('b', 'Vaatleja', 'Anija', ['PASS']),
    occupation('c', 'Juht', 'Viljandi', ['PASS']),
    occupation('d', 'Analüütik', 'Anija', ['LOGIN', 'PASS']),
  ],
  ...ME_DEFAULTS,
};

describe('session expiry', () => {
  let queryClient: QueryClient;
  beforeEach(() => {
    queryClient = new QueryClient();
  });
  afterEach(() => {
    Reflect.deleteProperty(globalThis, 'window');
  });

  it('remembers the user, occupation and page, and returns there after the same login', () => {
    fakeWindow('/eelarve-settings/organizations');
    resetClientState(queryClient, me);
    queryClient.setQueryData(['organizations', 'list'], []);

    createUnauthorizedHandler(queryClient)();

    expect(queryClient.getQueryData(ME_QUERY_KEY)).toBeNull();
    expect(queryClient.getQueryData(['organizations', 'list'])).toBeUndefined();
    expect(readSession()).toBeNull();
    expect(readExpiredSession()).toEqual({ userId: 'u1', occupationId: 'a', email: me.email, url: '/eelarve-settings/organizations?tab=1' });
    expect(postLoginTarget(me)).toBe('/eelarve-settings/organizations?tab=1');
    expect(postLoginTarget({ ...me, occupationId: 'd' })).toBe('/');
    expect(postLoginTarget({ ...me, id: 'u2' })).toBe('/');
    expect(postLoginTarget({ ...me, occupationId: null })).toBe('/select-occupation');
  });

  it('recognises an expiry after a reload from the remembered session', () => {
    fakeWindow('/');
    resetClientState(queryClient, me);
    queryClient.setQueryData(ME_QUERY_KEY, undefined);
    createUnauthorizedHandler(queryClient)();
    expect(readExpiredSession()?.userId).toBe('u1');
  });

  it('does not store the login pages as the page to return to, and records nothing without a session', () => {
    fakeWindow('/select-occupation');
    resetClientState(queryClient, me);
    createUnauthorizedHandler(queryClient)();
    expect(readExpiredSession()?.url).toBeNull();
    expect(postLoginTarget(me)).toBe('/');

    fakeWindow('/');
    createUnauthorizedHandler(queryClient)();
    expect(readExpiredSession()).toBeNull();
    expect(isRedirectTarget('/reset-password')).toBe(false);
    expect(isRedirectTarget('/users/permissions')).toBe(true);
  });
});

describe('occupation order', () => {
  it('puts the last used first, then those usable with the current login, then alphabetical', () => {
    expect(orderOccupations(me, 'et').map((candidate) => candidate.id)).toEqual(['c', 'd', 'a', 'b']);
  });
});
