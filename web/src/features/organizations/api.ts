import type { AdminChangeResponse, CommandResult, Me, Organization, organizationInputSchema } from '@eelarve/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../api';
import type { MutationCallbacks } from '../../app/mutation';
import { logout, ME_QUERY_KEY, resetClientState } from '../../app/session';

/** The organisation body as the shared schema outputs it (defaults applied, name trimmed). */
export type OrganizationPayload = ReturnType<typeof organizationInputSchema.parse>;

export interface LocalesResponse {
  locales: Array<{ code: string; defaultSettings: Record<string, string> }>;
  localeSettings: Array<{ name: string; options: string[] }>;
}

export const organizationKeys = {
  all: ['organizations'] as const,
  list: () => [...organizationKeys.all, 'list'] as const,
};
export const LOCALES_QUERY_KEY = ['locales'] as const;

export const fetchOrganizations = () => api.get<Organization[]>('/api/organizations');
export const fetchLocales = () => api.get<LocalesResponse>('/api/locales');
export const createOrganization = (body: OrganizationPayload) => api.post<CommandResult>('/api/organization', body);
export const updateOrganization = (id: string, body: OrganizationPayload) => api.put<CommandResult>(`/api/organization/${encodeURIComponent(id)}`, body);
export const deleteOrganization = (id: string) => api.delete<CommandResult>(`/api/organization/${encodeURIComponent(id)}`);

/** IS_ADMIN: gives the signed-in user an administrator occupation in the organisation; answers the new `me`. */
export const setOrganizationAdmin = (organizationId: string) => api.post<AdminChangeResponse>(`/api/admin/${encodeURIComponent(organizationId)}`);
/**
 * Removes the signed-in user's administrator occupation in the organisation; answers the new `me`
 * (`reloginRequired` when it was the occupation of this session: the session has ended).
 */
export const removeOrganizationAdmin = (organizationId: string) => api.delete<AdminChangeResponse>(`/api/admin/${encodeURIComponent(organizationId)}`);

// ---- hooks -------------------------------------------------------------------

export const organizationsQueryOptions = () => queryOptions({ queryKey: organizationKeys.list(), queryFn: fetchOrganizations });
export const localesQueryOptions = () => queryOptions({ queryKey: LOCALES_QUERY_KEY, queryFn: fetchLocales });

export const useOrganizations = () => useQuery(organizationsQueryOptions());
export const useLocales = () => useQuery(localesQueryOptions());

export function useRefreshOrganizations(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: organizationKeys.all }), [queryClient]);
}

/**
 * Adds (`organization` null) or edits an organisation. The list is read again, and the signed-in
 * user when it is their own organisation (the header and menu show its name).
 */
export function useSaveOrganization(
  { organization, ownOrganizationId }: { organization: Organization | null; ownOrganizationId: string | null },
  callbacks: MutationCallbacks<CommandResult, OrganizationPayload> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...callbacks,
    mutationFn: (payload: OrganizationPayload) => (organization ? updateOrganization(organization.id, payload) : createOrganization(payload)),
    onSuccess: async (...args) => {
      const refreshes = [queryClient.invalidateQueries({ queryKey: organizationKeys.all })];
      if (organization && organization.id === ownOrganizationId) refreshes.push(queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY }));
      await Promise.all(refreshes);
      await callbacks.onSuccess?.(...args);
    },
  });
}

/**
 * Makes the signed-in user the organisation's administrator, or removes that occupation. The answer
 * replaces the current user; when the session's own occupation went (`endsSession`, or the server
 * says so) the session has ended: the client forgets it and `onSessionEnded` follows.
 */
export function useAdminChange(
  { kind, organizationId, endsSession }: { kind: 'set' | 'remove'; organizationId: string; endsSession: boolean },
  { onChanged, onSessionEnded }: { onChanged: () => void; onSessionEnded: () => void },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => (kind === 'set' ? setOrganizationAdmin(organizationId) : removeOrganizationAdmin(organizationId)),
    onSuccess: async ({ reloginRequired, ...next }) => {
      if (reloginRequired || endsSession) {
        // The server ended the session; logging out again is harmless.
        await logout(false).catch(() => undefined);
        resetClientState(queryClient, null);
        onSessionEnded();
        return;
      }
      queryClient.setQueryData<Me | null>(ME_QUERY_KEY, next);
      await queryClient.invalidateQueries({ queryKey: organizationKeys.all });
      onChanged();
    },
  });
}
