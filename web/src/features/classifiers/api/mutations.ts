import type { Classifier, ClassifierCreateInput, ClassifierItem, ClassifierItemInput, ClassifierItemsBulkEdit, ClassifierUpdateInput } from '@eelarve/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useConfirmAction } from '../../../components/ConfirmAction';
import type { MessageKey } from '../../../i18n/messages';
import { classifierKeys } from './queries';
import {
  addItem,
  bulkEditItems,
  createClassifier,
  deleteClassifier,
  deleteItem,
  deleteItems,
  importItems,
  reorderClassifiers,
  updateClassifier,
  updateItem,
  validateImportFile,
} from './requests';

/** Refreshes every classifier query (the tree, items, the document form's master options). */
export function useRefreshClassifiers(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: classifierKeys.all }), [queryClient]);
}

/** Creates (classifier null) or updates a classifier; the classifiers are refreshed before `onSaved` gets its id. */
export function useSaveClassifier(documentId: string, classifier: Classifier | null, onSaved: (id: string) => Promise<unknown>) {
  return useMutation({
    mutationFn: (payload: ClassifierCreateInput | ClassifierUpdateInput) =>
      classifier ? updateClassifier(classifier.id, payload as ClassifierUpdateInput) : createClassifier(documentId, payload as ClassifierCreateInput),
    onSuccess: (result) => onSaved(result.id),
  });
}

/** Deletes a classifier after the user confirmed it; `onDeleted` runs after the refresh. */
export function useDeleteClassifier(onDeleted: () => void) {
  const refresh = useRefreshClassifiers();
  return useConfirmAction({
    run: (classifier: Classifier) => deleteClassifier(classifier.id),
    onDone: async () => {
      await refresh();
      onDeleted();
    },
  });
}

/** Stores the dragged order of the document's classifiers (display order = position). */
export function useReorderClassifiers(documentId: string, onSettled: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) =>
      reorderClassifiers(
        documentId,
        ids.map((id, index) => ({ id, displayOrder: index })),
      ),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: classifierKeys.list(documentId) });
      onSettled();
    },
  });
}

/** What the item form saves: one new or edited item, or a bulk edit of the selected items. */
export type ItemSave =
  | { kind: 'add'; body: ClassifierItemInput }
  | { kind: 'edit'; itemId: string; body: ClassifierItemInput }
  | { kind: 'bulk'; edit: ClassifierItemsBulkEdit };

const SAVED_MESSAGES: Record<ItemSave['kind'], MessageKey> = {
  add: 'classifiers.items.form.addNewSuccess',
  edit: 'classifiers.items.form.editSuccess',
  bulk: 'classifiers.items.form.editSelectedSuccess',
};

/** Saves the item form; `onSaved` gets the success message to show. */
export function useSaveItem(classifierId: string, onSaved: (message: MessageKey) => Promise<unknown>) {
  return useMutation({
    mutationFn: async (save: ItemSave) => {
      if (save.kind === 'bulk') await bulkEditItems(classifierId, save.edit);
      else if (save.kind === 'edit') await updateItem(classifierId, save.itemId, save.body);
      else await addItem(classifierId, save.body);
      return SAVED_MESSAGES[save.kind];
    },
    onSuccess: (message) => onSaved(message),
  });
}

/** Deletes one item, or the selected items, after a confirmation; `onDeleted` runs after the refresh. */
export function useDeleteItems(classifierId: string, onDeleted: { one: () => void; many: () => void }) {
  const refresh = useRefreshClassifiers();
  const one = useConfirmAction({
    run: (item: ClassifierItem) => deleteItem(classifierId, item.id),
    onDone: async () => {
      await refresh();
      onDeleted.one();
    },
  });
  const many = useConfirmAction({
    run: (selected: ClassifierItem[]) =>
      deleteItems(
        classifierId,
        selected.map((item) => item.id),
      ),
    onDone: async () => {
      await refresh();
      onDeleted.many();
    },
  });
  return { one, many };
}

/** Uploads an import file to be checked row by row. */
export function useValidateImport(classifierId: string) {
  return useMutation({ mutationFn: (file: File) => validateImportFile(classifierId, file) });
}

/** Imports the checked rows under this attempt's id (a retry is answered "already done"). */
export function useImportItems(
  classifierId: string,
  documentId: string,
  { onImported, onError }: { onImported: (count: number) => Promise<unknown>; onError: (error: Error) => void },
) {
  return useMutation({
    mutationFn: ({ items, loose, importId }: { items: Record<string, unknown>[]; loose: boolean; importId: string }) =>
      importItems(classifierId, documentId, items, loose, importId),
    onSuccess: (data) => onImported(data.imported),
    onError,
  });
}
