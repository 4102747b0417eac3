import type { Me } from '@eelarve/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api, isApiError } from '../../api';
import type { MutationCallbacks } from '../mutation';
import { fetchMe } from './current-user';
import { resetClientState } from './session';
import { clearExpiredSession } from './session-storage';

/** Chooses the occupation right after login (no occupation in the session yet). */
export function selectOccupation(occupationId: string): Promise<Me> {
  return api.post<Me>('/initial/auth/select-occupation', { occupationId });
}

/** Switches to another occupation of a signed-in user. */
export function switchOccupation(occupationId: string): Promise<Me> {
  return api.post<Me>('/api/auth/switch', { occupationId });
}

/** Ends this session or every session of the user; a 401 means it is already gone. */
export async function logout(logoutAllSessions: boolean): Promise<void> {
  try {
    await api.post<void>('/api/auth/logout', { logoutAllSessions }, { ignoreUnauthorized: true });
  } catch (error) {
    if (isApiError(error) && error.status === 401) return;
    throw error;
  }
}

/**
 * Logs out (`mutate(true)`: every session) and clears the client state. `clearOnError`: the client
 * forgets the session even when the call failed (leaving the occupation selection).
 */
export function useLogout({ onError, clearOnError = false }: { onError?: (error: Error) => void; clearOnError?: boolean } = {}) {
  const queryClient = useQueryClient();
  const end = () => {
    clearExpiredSession();
    resetClientState(queryClient, null);
  };
  return useMutation({
    mutationFn: (allSessions: boolean | undefined) => logout(allSessions ?? false),
    onSuccess: end,
    onError: (error) => {
      if (clearOnError) end();
      onError?.(error);
    },
  });
}

/**
 * Enters an occupation: chosen right after login, or switched to from another one. Cached data of
 * the former occupation is dropped and the user replaced (spec 1, section 4) before `onEntered`.
 */
export function useEnterOccupation({
  switching,
  onEntered,
  onError,
}: {
  switching: boolean;
  onEntered: (me: Me) => void;
  onError?: (error: Error, occupationId: string) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (occupationId: string) => (switching ? switchOccupation(occupationId) : selectOccupation(occupationId)),
    onSuccess: (next) => {
      resetClientState(queryClient, next);
      onEntered(next);
    },
    onError,
  });
}

/** Reads the user afresh without touching the cache (the session count may have changed since login). */
export function useFreshMe(callbacks: MutationCallbacks<Me | null, void> = {}) {
  return useMutation({ ...callbacks, mutationFn: fetchMe });
}

/** Starts the client afresh for `me` (a new sign-in or session step): cached data goes, the user is set. */
export function useStartSession(): (me: Me) => void {
  const queryClient = useQueryClient();
  return useCallback((me: Me) => resetClientState(queryClient, me), [queryClient]);
}
