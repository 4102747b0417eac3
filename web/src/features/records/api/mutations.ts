import type { CommandResult, RecordInput } from '@eelarve/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useConfirmAction } from '../../../components/ConfirmAction';
import { useToasts } from '../../../components/Toasts';
import type { BulkEditBody } from '../model/bulk-edit';
import { recordKeys } from './queries';
import { bulkEditRecords, createRecord, deleteRecord, deleteRecords, promoteRecord, revertRecordChange, type SubBudgetRef, updateRecord } from './requests';

/**
 * Refreshes what a change of a budget's records changes: its records lists and histories (a record
 * may move between sub-budgets), the sub-budgets' record counts and the document's record count.
 */
export function useRefreshRecords(budgetId: string): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: recordKeys.budget(budgetId) }),
      // The sub-budgets tab's counts and hasRecords (schemes feature), and documents' records_count.
      queryClient.invalidateQueries({ queryKey: ['schemes', 'budget-sub-budgets', budgetId] }),
      queryClient.invalidateQueries({ queryKey: ['documents'] }),
    ]);
  }, [queryClient, budgetId]);
}

/** What the inline save sends: a new record (maybe a copy of another) or the changed one. */
export interface SaveRecordVariables<T> {
  recordId: string | null;
  body: RecordInput;
  duplicatedFrom?: string;
  context: T;
}

/** Creates (recordId null) or updates a record; the records are read again before `onSaved`. */
export function useSaveRecord<T>(
  ref: SubBudgetRef,
  { onSaved, onError }: { onSaved: (result: CommandResult, context: T) => void; onError: (error: Error) => void },
) {
  const refresh = useRefreshRecords(ref.budgetId);
  return useMutation({
    mutationFn: ({ recordId, body, duplicatedFrom }: SaveRecordVariables<T>) =>
      recordId ? updateRecord(ref, recordId, body) : createRecord(ref, duplicatedFrom ? { ...body, duplicatedFrom } : body),
    onSuccess: async (result, { context }) => {
      await refresh();
      onSaved(result, context);
    },
    onError,
  });
}

/** Toggles a record's promoted flag; a failure is 'editError' with the server's reason (spec 3, section 8). */
export function usePromoteRecord(ref: SubBudgetRef) {
  const refresh = useRefreshRecords(ref.budgetId);
  const { showFailure } = useToasts();
  return useMutation({
    mutationFn: (recordId: string) => promoteRecord(ref, recordId),
    onSuccess: refresh,
    onError: (error) => showFailure('records.table.editError', error),
  });
}

/** What a delete removes: one record, or the selected ones. */
export type RecordDeleteTarget = { kind: 'one'; recordId: string; name: string } | { kind: 'many'; recordIds: string[] };

/**
 * Deletes one record or the selected ones after the user confirmed it; the bulk delete says how it
 * went in a toast (deleteMultipleSuccess, deleteMultipleError).
 */
export function useDeleteRecords(ref: SubBudgetRef, onDeleted: (target: RecordDeleteTarget) => void) {
  const refresh = useRefreshRecords(ref.budgetId);
  const { showSuccess, showFailure } = useToasts();
  const action = useConfirmAction({
    run: async (target: RecordDeleteTarget) => {
      try {
        return await (target.kind === 'one' ? deleteRecord(ref, target.recordId) : deleteRecords(ref, target.recordIds));
      } catch (error) {
        if (target.kind === 'many') showFailure('records.deleteMultipleError', error);
        throw error;
      }
    },
    onDone: async (target) => {
      await refresh();
      if (target.kind === 'many') showSuccess('records.deleteMultipleSuccess', { count: target.recordIds.length });
      onDeleted(target);
    },
  });
  return action;
}

/** Sets one field on the selected records (bulkEditSuccess, bulkEditError). */
export function useBulkEditRecords(ref: SubBudgetRef, onDone: () => void) {
  const refresh = useRefreshRecords(ref.budgetId);
  const { showSuccess, showFailure } = useToasts();
  return useMutation({
    mutationFn: (body: BulkEditBody) => bulkEditRecords(ref, body),
    onSuccess: async (_result, body) => {
      await refresh();
      showSuccess('records.bulkEditSuccess', { count: body.recordIds.length });
      onDone();
    },
    onError: (error) => showFailure('records.bulkEditError', error),
  });
}

/** Undoes one change of a record's history as a new change; the history and the table are read again. */
export function useRevertRecordChange(ref: SubBudgetRef, recordId: string) {
  const refresh = useRefreshRecords(ref.budgetId);
  const { showSuccess, showError } = useToasts();
  return useMutation({
    mutationFn: (eventId: string) => revertRecordChange(ref, recordId, eventId),
    onSuccess: async () => {
      await refresh();
      showSuccess('records.history.revertSuccess');
    },
    onError: showError,
  });
}
