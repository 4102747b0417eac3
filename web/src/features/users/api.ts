import type { CommandResult, Occupation, User } from '@eelarve/shared';
import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../api';
import { ME_QUERY_KEY } from '../../app/session';
import { roleKeys } from '../roles/api';

const org = (organizationId: string) => `/api/organization/${encodeURIComponent(organizationId)}`;

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

export const userKeys = {
  all: ['users'] as const,
  list: (organizationId: string) => [...userKeys.all, organizationId, 'list'] as const,
  names: (organizationId: string) => [...userKeys.all, organizationId, 'names'] as const,
};

export const occupationKeys = {
  all: ['occupations'] as const,
  list: (organizationId: string) => [...occupationKeys.all, organizationId] as const,
};

export const fetchUsers = (organizationId: string) => api.get<User[]>(`${org(organizationId)}/users`);
export const fetchUserNames = (organizationId: string) => api.get<UserName[]>(`${org(organizationId)}/user-names`);
/** Registers the user and sends the registration mail. */
export const createUser = (organizationId: string, body: UserPayload) => api.post<CommandResult>(`${org(organizationId)}/user`, body);
export const updateUser = (organizationId: string, userId: string, body: UserPayload) =>
  api.put<CommandResult>(`${org(organizationId)}/user/${encodeURIComponent(userId)}`, body);
export const deleteUser = (organizationId: string, userId: string) =>
  api.delete<CommandResult>(`${org(organizationId)}/user/${encodeURIComponent(userId)}`);
/** IS_ADMIN: removes the password, MFA and electronic ID of another user. */
export const removeAuthMethods = (userId: string) =>
  api.post<CommandResult>(`/api/admin/user/${encodeURIComponent(userId)}/remove-auth-methods`);

export const fetchOccupations = (organizationId: string) => api.get<Occupation[]>(`${org(organizationId)}/occupations`);
export const createOccupation = (organizationId: string, body: OccupationPayload) =>
  api.post<CommandResult>(`${org(organizationId)}/occupation`, body);
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
    queryClient.invalidateQueries({ queryKey: [...userKeys.all, organizationId] }),
    queryClient.invalidateQueries({ queryKey: occupationKeys.list(organizationId) }),
    queryClient.invalidateQueries({ queryKey: roleKeys.list(organizationId) }),
  ];
  if (touchesMe) refreshes.push(queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY }));
  await Promise.all(refreshes);
}
