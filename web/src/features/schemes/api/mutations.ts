import type { ClassifierPreselections, SchemeInput } from '@eelarve/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useConfirmAction } from '../../../components/ConfirmAction';
import { useToasts } from '../../../components/Toasts';
import { schemeKeys } from './queries';
import {
  type CommandResult,
  createScheme,
  createSubBudget,
  deleteScheme,
  deleteSubBudget,
  deleteSubBudgets,
  type ImportType,
  importSubBudgets,
  rememberScheme,
  reorderSchemes,
  saveBudgetPins,
  savePreselections,
  type SubBudgetPayload,
  updateScheme,
  updateSubBudget,
} from './requests';

/** Refreshes the document's scheme list (sub-budget counts included). */
export function useRefreshSchemes(documentId: string): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: schemeKeys.list(documentId) }), [queryClient, documentId]);
}

/** Refreshes a scheme's sub-budgets everywhere they are shown, and the scheme list's counts. */
export function useRefreshSubBudgets(documentId: string, schemeId: string): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: schemeKeys.subBudgets(schemeId) }),
      queryClient.invalidateQueries({ queryKey: ['schemes', 'budget-sub-budgets'] }),
      queryClient.invalidateQueries({ queryKey: schemeKeys.list(documentId) }),
    ]);
  }, [queryClient, documentId, schemeId]);
}

/** Creates (id null) or updates a scheme; the list is refreshed before `onSaved`. */
export function useSaveScheme<T>(
  documentId: string,
  { onSaved, onError }: { onSaved: (result: CommandResult, context: T) => void; onError: (error: Error) => void },
) {
  const refresh = useRefreshSchemes(documentId);
  return useMutation({
    mutationFn: ({ id, payload }: { id: string | null; payload: SchemeInput; context: T }) =>
      id ? updateScheme(id, payload) : createScheme(documentId, payload),
    onSuccess: async (result, { context }) => {
      await refresh();
      onSaved(result, context);
    },
    onError,
  });
}

/** Stores the schemes' order (display order = position + 1). */
export function useReorderSchemes(documentId: string) {
  const refresh = useRefreshSchemes(documentId);
  const { showError } = useToasts();
  return useMutation({
    mutationFn: (list: Array<{ id: string; displayOrder: number }>) => reorderSchemes(documentId, list),
    onSettled: refresh,
    onError: showError,
  });
}

/** Deletes a scheme after the user confirmed it. */
export function useDeleteScheme<T extends { key: string }>(documentId: string, onDeleted: () => void) {
  const refresh = useRefreshSchemes(documentId);
  return useConfirmAction({
    run: (row: T) => deleteScheme(row.key),
    onDone: async () => {
      await refresh();
      onDeleted();
    },
  });
}

/** Creates (id null) or updates a sub-budget; the sub-budgets are refreshed before `onSaved`. */
export function useSaveSubBudget<T>(
  documentId: string,
  schemeId: string,
  { onSaved, onError }: { onSaved: (result: CommandResult, context: T) => void; onError: (error: Error) => void },
) {
  const refresh = useRefreshSubBudgets(documentId, schemeId);
  return useMutation({
    mutationFn: ({ id, payload }: { id: string | null; payload: SubBudgetPayload; context: T }) =>
      id ? updateSubBudget(schemeId, id, payload) : createSubBudget(schemeId, payload),
    onSuccess: async (result, { context }) => {
      await refresh();
      onSaved(result, context);
    },
    onError,
  });
}

/** What a sub-budget delete removes: one row, or the selected ones. */
export type SubBudgetDeleteTarget<Row> = { kind: 'one'; row: Row } | { kind: 'many'; ids: string[] };

/** Deletes one or several sub-budgets after the user confirmed it; `onDeleted` runs after the refresh. */
export function useDeleteSubBudgets<Row extends { key: string }>(
  documentId: string,
  schemeId: string,
  onDeleted: (target: SubBudgetDeleteTarget<Row>) => void,
) {
  const refresh = useRefreshSubBudgets(documentId, schemeId);
  return useConfirmAction({
    run: (target: SubBudgetDeleteTarget<Row>) => (target.kind === 'one' ? deleteSubBudget(schemeId, target.row.key) : deleteSubBudgets(schemeId, target.ids)),
    onDone: async (target) => {
      await refresh();
      onDeleted(target);
    },
  });
}

/** Imports sub-budgets or their preselections from a file's rows under this attempt's id. */
export function useImportSubBudgets(
  schemeId: string,
  mode: ImportType,
  { onImported, onError }: { onImported: (imported: number) => Promise<unknown>; onError: (error: Error) => void },
) {
  return useMutation({
    mutationFn: ({ list, importId }: { list: Parameters<typeof importSubBudgets>[2]; importId: string }) => importSubBudgets(schemeId, mode, list, importId),
    onSuccess: (result) => onImported(result.imported),
    onError,
  });
}

/** Saves a sub-budget's preselections; `onSaved` runs after they were read again. */
export function useSavePreselections(subBudgetId: string, onSaved: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (preselections: ClassifierPreselections) => savePreselections(subBudgetId, preselections),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: schemeKeys.preselections(subBudgetId) });
      onSaved();
    },
  });
}

/** Pins a common budget's sub-budgets of one scheme (unpinning one with records is `confirmed`). */
export function useBudgetPins(
  budgetId: string,
  schemeId: string | null,
  { onSaved, onError }: { onSaved: () => void; onError: (error: Error, variables: { pinned: string[]; confirmed: boolean }) => void },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ pinned, confirmed }: { pinned: string[]; confirmed: boolean }) => saveBudgetPins(budgetId, schemeId ?? '', pinned, confirmed),
    onSuccess: async () => {
      onSaved();
      await queryClient.invalidateQueries({ queryKey: schemeKeys.budgetSubBudgets(budgetId, schemeId ?? '') });
    },
    onError,
  });
}

/** Remembers the scheme shown on a budget's sub-budgets tab. */
export function useRememberScheme(budgetId: string) {
  return useMutation({ mutationFn: (schemeId: string) => rememberScheme(budgetId, schemeId) });
}
