import type { ApprovalRouteInput, CommandResult, OrganizationApprovalRoute } from '@eelarve/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api';
import type { MutationCallbacks } from '../../../app/mutation';
import { useConfirmAction } from '../../../components/ConfirmAction';

const routePath = (organizationId: string) => `/api/organization/${encodeURIComponent(organizationId)}/approval-route`;

export const approvalRouteKeys = {
  all: ['approval-route'] as const,
  of: (organizationId: string) => [...approvalRouteKeys.all, organizationId] as const,
};

export const fetchApprovalRoute = (organizationId: string) => api.get<OrganizationApprovalRoute>(routePath(organizationId));
export const saveApprovalRoute = (organizationId: string, route: ApprovalRouteInput) => api.put<CommandResult>(routePath(organizationId), route);
export const resetApprovalRoute = (organizationId: string) => api.delete<CommandResult>(routePath(organizationId));

/** GET api/organization/{id}/approval-route: the configured route, or the default one. */
export const approvalRouteQueryOptions = (organizationId: string) =>
  queryOptions({ queryKey: approvalRouteKeys.of(organizationId), queryFn: () => fetchApprovalRoute(organizationId) });

export const useApprovalRoute = (organizationId: string) => useQuery(approvalRouteQueryOptions(organizationId));

/** Stores the organisation's route; the route is read again before the screen's reaction. */
export function useSaveApprovalRoute(organizationId: string, callbacks: MutationCallbacks<CommandResult, ApprovalRouteInput> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...callbacks,
    mutationFn: (route: ApprovalRouteInput) => saveApprovalRoute(organizationId, route),
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: approvalRouteKeys.of(organizationId) });
      await callbacks.onSuccess?.(...args);
    },
  });
}

/** Back to the default route after confirmation. */
export function useResetApprovalRoute(organizationId: string) {
  const queryClient = useQueryClient();
  return useConfirmAction({
    run: () => resetApprovalRoute(organizationId),
    onDone: () => queryClient.invalidateQueries({ queryKey: approvalRouteKeys.of(organizationId) }),
  });
}
