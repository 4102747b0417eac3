import type { Me } from '@eelarve/shared';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api, isApiError } from '../../api';

export const ME_QUERY_KEY = ['auth', 'me'] as const;

/** The signed-in user, or null when there is no session. */
export async function fetchMe(): Promise<Me | null> {
  try {
    return await api.get<Me>('/api/auth/me');
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}

/** The user is loaded once per session and replaced by the server's answers to session changes. */
export const meQueryOptions = () =>
  queryOptions({ queryKey: ME_QUERY_KEY, queryFn: fetchMe, staleTime: Number.POSITIVE_INFINITY, gcTime: Number.POSITIVE_INFINITY });

/** The session's user: undefined while loading, null when signed out. */
export function useMeQuery() {
  return useQuery(meQueryOptions());
}

/** The signed-in user inside the guarded area (the guards make sure there is one). */
export function useCurrentUser(): Me {
  const { data } = useMeQuery();
  if (!data) throw new Error('useCurrentUser used outside the signed-in area');
  return data;
}

/** Refreshes the signed-in user after a change of the account (or takes the server's new copy). */
export function useRefreshMe(): (next?: Me) => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    async (next?: Me) => {
      if (next && typeof next === 'object' && 'id' in next) queryClient.setQueryData(ME_QUERY_KEY, next);
      else await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    },
    [queryClient],
  );
}
