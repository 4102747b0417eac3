import type { CommandResult, Occupation, User } from '@eelarve/shared';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../api';
import type { MutationCallbacks } from '../../app/mutation';
import { occupationKeys, organizationPath as org, roleKeys, userKeys } from '../../app/organization/accounts';
import { ME_QUERY_KEY } from '../../app/session';

export { occupationKeys, userKeys };

export interface UserName {
  id: string;
  name: string;
}

export interface UserPayload {
  name: string;
  email: string;
}

export interface OccupationPayload {
  userId: string;
  name: string;
  description: string;
  roles: string[];
}

export const fetchUsers = (organizationId: string) => api.get<User[]>(`${org(organizationId)}/users`);
export const fetchUserNames = (organizationId: string) => api.get<UserName[]>(`${org(organizationId)}/user-names`);
/** Registers the user and sends the registration mail. */
export const createUser = (organizationId: string, body: UserPayload) => api.post<CommandResult>(`${org(organizationId)}/user`, body);
export const updateUser = (organizationId: string, userId: string, body: UserPayload) =>
  api.put<CommandResult>(`${org(organizationId)}/user/${encodeURIComponent(userId)}`, body);
export const deleteUser = (organizationId: string, userId: string) => api.delete<CommandResult>(`${org(organizationId)}/user/${encodeURIComponent(userId)}`);
/** IS_ADMIN: removes the password, MFA and electronic ID of another user. */
export const removeAuthMethods = (userId: string) => api.post<CommandResult>(`/api/admin/user/${encodeURIComponent(userId)}/remove-auth-methods`);

export const fetchOccupations = (organizationId: string) => api.get<Occupation[]>(`${org(organizationId)}/occupations`);
export const createOccupation = (organizationId: string, body: OccupationPayload) => api.post<CommandResult>(`${org(organizationId)}/occupation`, body);
export const updateOccupation = (organizationId: string, occupationId: string, body: OccupationPayload) =>
  api.put<CommandResult>(`/api/occupation/${encodeURIComponent(occupationId)}`, { organizationId, ...body });
export const deleteOccupation = (occupationId: string) => api.delete<CommandResult>(`/api/occupation/${encodeURIComponent(occupationId)}`);

/**
 * After a change to users or occupations: both tabs show both (a user's occupations, an
 * occupation's user), roles show whether they are in use, and the signed-in user's own
 * occupations and name come from `me`.
 */
export async function refreshAccounts(queryClient: QueryClient, organizationId: string, touchesMe: boolean): Promise<void> {
  const refreshes = [
    queryClient.invalidateQueries({ queryKey: userKeys.organization(organizationId) }),
    queryClient.invalidateQueries({ queryKey: occupationKeys.list(organizationId) }),
    queryClient.invalidateQueries({ queryKey: roleKeys.list(organizationId) }),
  ];
  if (touchesMe) refreshes.push(queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY }));
  await Promise.all(refreshes);
}

// ---- hooks -------------------------------------------------------------------

export const usersQueryOptions = (organizationId: string) =>
  queryOptions({ queryKey: userKeys.list(organizationId), queryFn: () => fetchUsers(organizationId) });
export const userNamesQueryOptions = (organizationId: string) =>
  queryOptions({ queryKey: userKeys.names(organizationId), queryFn: () => fetchUserNames(organizationId) });
export const occupationsQueryOptions = (organizationId: string) =>
  queryOptions({ queryKey: occupationKeys.list(organizationId), queryFn: () => fetchOccupations(organizationId) });

export const useUsers = (organizationId: string) => useQuery(usersQueryOptions(organizationId));
export const useUserNames = (organizationId: string) => useQuery(userNamesQueryOptions(organizationId));
export const useOccupations = (organizationId: string) => useQuery(occupationsQueryOptions(organizationId));

/** `refreshAccounts` of the organisation, for the screens' own actions (delete after confirmation). */
export function useRefreshAccounts(organizationId: string): (touchesMe: boolean) => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback((touchesMe: boolean) => refreshAccounts(queryClient, organizationId, touchesMe), [queryClient, organizationId]);
}

/** Only the user list changes (another user's sign-in methods were removed). */
export function useRefreshUsers(organizationId: string): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: userKeys.list(organizationId) }), [queryClient, organizationId]);
}

/** Adds (`userId` null: the registration mail is sent) or edits a user; the lists follow, and `me` when it is the signed-in user. */
export function useSaveUser(
  { organizationId, userId, touchesMe }: { organizationId: string; userId: string | null; touchesMe: boolean },
  callbacks: MutationCallbacks<CommandResult, UserPayload> = {},
) {
  const refresh = useRefreshAccounts(organizationId);
  return useMutation({
    ...callbacks,
    mutationFn: (payload: UserPayload) => (userId ? updateUser(organizationId, userId, payload) : createUser(organizationId, payload)),
    onSuccess: async (...args) => {
      await refresh(touchesMe);
      await callbacks.onSuccess?.(...args);
    },
  });
}

/** Adds or edits an occupation; `me` is read again when the occupation was or becomes the signed-in user's. */
export function useSaveOccupation(
  { organizationId, occupation, meId }: { organizationId: string; occupation: Occupation | null; meId: string },
  callbacks: MutationCallbacks<CommandResult, OccupationPayload> = {},
) {
  const refresh = useRefreshAccounts(organizationId);
  return useMutation({
    ...callbacks,
    mutationFn: (payload: OccupationPayload) =>
      occupation ? updateOccupation(organizationId, occupation.id, payload) : createOccupation(organizationId, payload),
    onSuccess: async (...args) => {
      const [, payload] = args;
      await refresh(payload.userId === meId || occupation?.userId === meId);
      await callbacks.onSuccess?.(...args);
    },
  });
}
