import type { BudgetInput, CommandResult } from '@eelarve/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../../api';
import { orderList } from '../../../api/order';
import { useConfirmAction } from '../../../components/ConfirmAction';
import { useToasts } from '../../../components/Toasts';
import { type BudgetView, budgetKeys } from './queries';

const enc = encodeURIComponent;

const createBudget = (documentId: string, body: BudgetInput) => api.post<CommandResult>(`/api/document/${enc(documentId)}/budget`, body);
const updateBudget = (budgetId: string, body: BudgetInput) => api.put<CommandResult>(`/api/budget/${enc(budgetId)}`, body);
const setBudgetSync = (budgetId: string, enabled: boolean) => api.put<CommandResult>(`/api/admin/budgets/${enc(budgetId)}/sync`, { enabled });

/** Refreshes every budget query (lists, the budget, hierarchies). */
export function useRefreshBudgets(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: budgetKeys.all }), [queryClient]);
}

/** What saving the budget form sends: the budget, and for a monitoring budget the administrator's sync switch when it changed. */
export interface BudgetSave {
  payload: BudgetInput;
  sync?: boolean;
}

/** Creates (budget null) or updates a budget; every budget query is refreshed before `onSaved` runs. */
export function useSaveBudget(
  documentId: string,
  budget: BudgetView | null,
  { onSaved, onError }: { onSaved: (result: CommandResult) => void; onError: (error: Error) => void },
) {
  const refresh = useRefreshBudgets();
  return useMutation({
    mutationFn: async ({ payload, sync }: BudgetSave) => {
      if (!budget) return createBudget(documentId, payload);
      const result = await updateBudget(budget.id, payload);
      if (sync !== undefined) await setBudgetSync(budget.id, sync);
      return result;
    },
    onSuccess: async (result) => {
      await refresh();
      onSaved(result);
    },
    onError,
  });
}

/** Shows the monitoring budget's import key to the administrator. */
export function useRevealApiKey(budgetId: string, onRevealed: (apiKey: string) => void) {
  const { showError } = useToasts();
  return useMutation({
    mutationFn: () => api.get<{ apiKey: string }>(`/api/budget/${enc(budgetId)}/api-key`),
    onSuccess: (result) => onRevealed(result.apiKey),
    onError: (error) => showError(error),
  });
}

/** Deletes a budget after the user confirmed it. */
export function useDeleteBudget() {
  const refresh = useRefreshBudgets();
  return useConfirmAction({ run: (budget: BudgetView) => api.delete<CommandResult>(`/api/budget/${enc(budget.id)}`), onDone: refresh });
}

/** Sets a budget's tags, shown at once (optimistic) and rolled back when refused. */
export function useBudgetTags(documentId: string) {
  const queryClient = useQueryClient();
  const { showError } = useToasts();
  const listKey = budgetKeys.list(documentId);
  return useMutation({
    mutationFn: ({ budget, tags }: { budget: BudgetView; tags: string[] }) => api.put<CommandResult>(`/api/budget/${enc(budget.id)}/tags`, { tags }),
    onMutate: async ({ budget, tags }) => {
      await queryClient.cancelQueries({ queryKey: listKey });
      const previous = queryClient.getQueryData<BudgetView[]>(listKey);
      queryClient.setQueryData<BudgetView[]>(listKey, (list) => list?.map((row) => (row.id === budget.id ? { ...row, tags } : row)));
      return { previous };
    },
    onError: (error, _variables, context) => {
      if (context?.previous) queryClient.setQueryData(listKey, context.previous);
      showError(error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: listKey }),
  });
}

/** Stores the dragged order of a document's budgets; the list shows the new order at once. */
export function useReorderBudgets(documentId: string) {
  const queryClient = useQueryClient();
  const { showError } = useToasts();
  const listKey = budgetKeys.list(documentId);
  const mutation = useMutation({
    mutationFn: (ids: string[]) => api.put<CommandResult>(`/api/document/${enc(documentId)}/budgets/order`, { documentId, list: orderList(ids) }),
    onError: (error) => showError(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: listKey }),
  });
  const reorder = (ids: string[]) => {
    queryClient.setQueryData<BudgetView[]>(listKey, (list) =>
      ids.map((id) => list?.find((row) => row.id === id)).filter((row): row is BudgetView => row !== undefined),
    );
    mutation.mutate(ids);
  };
  return { reorder, isPending: mutation.isPending };
}
