import type { LoginRequest, Me } from '@eelarve/shared';
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

/** A 401 here means a wrong e-mail or password, not an expired session. */
export function login(request: LoginRequest): Promise<Me> {
  return api.post<Me>('/initial/auth/login', request, { ignoreUnauthorized: true });
}

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
