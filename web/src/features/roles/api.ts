import type { CommandResult, Privilege, RoleInput } from '@eelarve/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../api';
import type { MutationCallbacks } from '../../app/mutation';
import { occupationKeys, organizationPath as org, roleKeys, useRoles } from '../../app/organization/accounts';
import type { EditSession } from './edit-state';
import type { RoleDeleteResult } from './status-usage';

export { roleKeys, useRoles };

/** GET api/privileges: every privilege the product knows (spec 1, section 6). */
export interface PrivilegeOption {
  id: Privilege;
  name: string;
}

export const PRIVILEGES_QUERY_KEY = ['privileges'] as const;

export const fetchPrivileges = () => api.get<PrivilegeOption[]>('/api/privileges');

/** The role body of spec 1, section 7: name, description, privilegeIds (id and organizationId on update). */
export type RolePayload = Required<Pick<RoleInput, 'name' | 'description' | 'privilegeIds'>>;

export const createRole = (organizationId: string, body: RolePayload) => api.post<CommandResult>(`${org(organizationId)}/role`, body);
export const updateRole = (organizationId: string, id: string, body: RolePayload) =>
  api.put<CommandResult>(`${org(organizationId)}/role/${encodeURIComponent(id)}`, { id, organizationId, ...body });
export const deleteRole = (organizationId: string, id: string) => api.delete<RoleDeleteResult>(`${org(organizationId)}/role/${encodeURIComponent(id)}`);

// ---- hooks -------------------------------------------------------------------

/** The privileges never change while the app runs; only an editor needs them. */
export const privilegesQueryOptions = (enabled: boolean) =>
  queryOptions({ queryKey: PRIVILEGES_QUERY_KEY, queryFn: fetchPrivileges, enabled, staleTime: Number.POSITIVE_INFINITY });

export const usePrivileges = (enabled: boolean) => useQuery(privilegesQueryOptions(enabled));

/** The roles, and the occupations that show role names. */
export function useRefreshRoles(organizationId: string): () => Promise<unknown> {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: roleKeys.list(organizationId) }),
        queryClient.invalidateQueries({ queryKey: occupationKeys.all }),
      ]),
    [queryClient, organizationId],
  );
}

type SaveRole = { editing: EditSession; payload: RolePayload };

/** Creates the new row's role or updates the edited one; the lists are refreshed before the screen's reaction. */
export function useSaveRole(organizationId: string, callbacks: MutationCallbacks<CommandResult, SaveRole> = {}) {
  const refreshRoles = useRefreshRoles(organizationId);
  return useMutation({
    ...callbacks,
    mutationFn: ({ editing, payload }: SaveRole) =>
      editing.mode === 'editing' ? updateRole(organizationId, editing.key, payload) : createRole(organizationId, payload),
    onSuccess: async (...args) => {
      await refreshRoles();
      await callbacks.onSuccess?.(...args);
    },
  });
}
