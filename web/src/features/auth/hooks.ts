import type { Me } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { fetchMe, ME_QUERY_KEY } from './api';

/** The session's user: undefined while loading, null when signed out. */
export function useMeQuery() {
  return useQuery({ queryKey: ME_QUERY_KEY, queryFn: fetchMe, staleTime: Number.POSITIVE_INFINITY, gcTime: Number.POSITIVE_INFINITY });
}

/** The signed-in user inside the guarded area (the guards make sure there is one). */
export function useCurrentUser(): Me {
  const { data } = useMeQuery();
  if (!data) throw new Error('useCurrentUser used outside the signed-in area');
  return data;
}
