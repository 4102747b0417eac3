import type { CommandResult, ResourceStatus, ResourceStatusFields } from '@eelarve/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../../api';
import type { MutationCallbacks } from '../../../app/mutation';
import { useRefreshMe } from '../../../app/session';
import { useConfirmAction } from '../../../components/ConfirmAction';
import { resourceStatusKeys } from './queries';

const statusPath = (id: string) => `/api/resource-status/${encodeURIComponent(id)}`;

export const createResourceStatus = (body: ResourceStatusFields) => api.post<CommandResult>('/api/resource-statuses', body);
export const updateResourceStatus = (id: string, body: ResourceStatusFields) => api.put<CommandResult>(statusPath(id), { ...body, id });
export const resetResourceStatus = (id: string) => api.post<CommandResult>(`${statusPath(id)}/reset`, {});
export const deleteResourceStatus = (id: string) => api.delete<CommandResult>(statusPath(id));

/** The statuses list and `me` (whose resourceStatuses feed the document and budget forms). */
export function useRefreshResourceStatuses(): () => Promise<unknown> {
  const queryClient = useQueryClient();
  const refreshMe = useRefreshMe();
  return useCallback(() => Promise.all([queryClient.invalidateQueries({ queryKey: resourceStatusKeys.all }), refreshMe()]), [queryClient, refreshMe]);
}

type SaveStatus = { id: string | null; fields: ResourceStatusFields };

/** Creates (id null) or updates a status; the lists are refreshed before the screen's reaction. */
export function useSaveResourceStatus(callbacks: MutationCallbacks<CommandResult, SaveStatus> = {}) {
  const refresh = useRefreshResourceStatuses();
  return useMutation({
    ...callbacks,
    mutationFn: ({ id, fields }: SaveStatus) => (id ? updateResourceStatus(id, fields) : createResourceStatus(fields)),
    onSuccess: async (...args) => {
      await refresh();
      await callbacks.onSuccess?.(...args);
    },
  });
}

/** Resets a read-only status to its default name, description and icon after confirmation. */
export function useResetResourceStatus() {
  const refresh = useRefreshResourceStatuses();
  return useConfirmAction({ run: (status: ResourceStatus) => resetResourceStatus(status.id), onDone: refresh });
}

/** Deletes an organisation's own status after confirmation. */
export function useDeleteResourceStatus() {
  const refresh = useRefreshResourceStatuses();
  return useConfirmAction({ run: (status: ResourceStatus) => deleteResourceStatus(status.id), onDone: refresh });
}
