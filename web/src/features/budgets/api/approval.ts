import type { ApprovalAction, BudgetApproval, CommandResult, Occupation } from '@eelarve/shared';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api';
import type { MutationCallbacks } from '../../../app/mutation';
import { occupationKeys, organizationPath, userKeys } from '../../../app/organization/accounts';
import { budgetKeys } from './queries';

const enc = encodeURIComponent;

export const approvalKey = (budgetId: string) => [...budgetKeys.all, 'approval', budgetId] as const;

/** GET api/budget/{id}/approval: where the budget is on its route, every step so far (oldest first), the caller's actions. */
export const budgetApprovalQuery = (budgetId: string) =>
  queryOptions({ queryKey: approvalKey(budgetId), queryFn: () => api.get<BudgetApproval>(`/api/budget/${enc(budgetId)}/approval`) });

const ACTION_PATH: Record<ApprovalAction, string> = { SUBMIT: 'submit', APPROVE: 'approve', SEND_BACK: 'send-back', REOPEN: 'reopen' };

/** What one action sends: a comment (submit, approve; may be empty) or a reason (send back, reopen; required). */
export type ApprovalActionInput = { action: 'SUBMIT' | 'APPROVE'; comment: string } | { action: 'SEND_BACK' | 'REOPEN'; reason: string };

const takeAction = (budgetId: string, input: ApprovalActionInput) => {
  const body = 'reason' in input ? { reason: input.reason } : { comment: input.comment };
  return api.post<CommandResult>(`/api/budget/${enc(budgetId)}/approval/${ACTION_PATH[input.action]}`, body);
};

/**
 * Takes one step of the budget's route. A step may change the budget's resource status, so every
 * budget query (the route included) is refreshed before the screen's own reaction.
 */
export function useApprovalAction(budgetId: string, callbacks: MutationCallbacks<CommandResult, ApprovalActionInput> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ApprovalActionInput) => takeAction(budgetId, input),
    ...callbacks,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: budgetKeys.all });
      await callbacks.onSuccess?.(...args);
    },
  });
}

/** Names of the organisation's users and occupations, for the history; only privileged callers may list them. */
export const approvalUserNamesQuery = (organizationId: string, enabled: boolean) =>
  queryOptions({
    queryKey: userKeys.names(organizationId),
    queryFn: () => api.get<{ id: string; name: string }[]>(`${organizationPath(organizationId)}/user-names`),
    enabled,
  });

export const approvalOccupationsQuery = (organizationId: string, enabled: boolean) =>
  queryOptions({
    queryKey: occupationKeys.list(organizationId),
    queryFn: () => api.get<Occupation[]>(`${organizationPath(organizationId)}/occupations`),
    enabled,
  });
