import type { Me } from '@eelarve/shared';
import type { Query, QueryClient } from '@tanstack/react-query';
import { ME_QUERY_KEY } from './current-user';
import { forgetSession, isRedirectTarget, readSession, recordExpiredSession, rememberSession } from './session-storage';

function isMeQuery(query: Query): boolean {
  return query.queryKey[0] === ME_QUERY_KEY[0] && query.queryKey[1] === ME_QUERY_KEY[1];
}

/** Drops every cached query except the user, then sets the user (null: signed out). */
export function resetClientState(queryClient: QueryClient, me: Me | null): void {
  const others = { predicate: (query: Query) => !isMeQuery(query) };
  void queryClient.cancelQueries(others);
  queryClient.removeQueries(others);
  queryClient.setQueryData<Me | null>(ME_QUERY_KEY, me);
  if (me) rememberSession(me);
  else forgetSession();
}

/**
 * Any 401 (spec 1, section 4): clear the client state and remember the last user, occupation and
 * URL, which makes /login show the session-expired warning and return to the URL after the next
 * login of the same user and occupation. Repeated 401s of the same moment change nothing more.
 */
export function createUnauthorizedHandler(queryClient: QueryClient): () => void {
  return () => {
    const me = queryClient.getQueryData<Me | null>(ME_QUERY_KEY);
    const known = me ? { userId: me.id, occupationId: me.occupationId, email: me.email } : readSession();
    if (known) {
      const { pathname, search, hash } = window.location;
      recordExpiredSession({ ...known, url: isRedirectTarget(pathname) ? `${pathname}${search}${hash}` : null });
    }
    resetClientState(queryClient, null);
  };
}
