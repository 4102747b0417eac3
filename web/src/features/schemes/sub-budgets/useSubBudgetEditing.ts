import type { SubBudget } from '@eelarve/shared';
import type { GridApi } from 'ag-grid-community';
import { type RefObject, useCallback, useMemo } from 'react';
import { useIntl } from 'react-intl';
import { useToasts } from '../../../components/Toasts';
import { useInlineRowEditing } from '../../../grid/useInlineRowEditing';
import { useSaveSubBudget } from '../api/mutations';
import type { SubBudgetPayload } from '../api/requests';
import type { SchemeColumn } from '../model';
import {
  COMBINATION_FIELD,
  NAME_FIELD,
  parseSubBudgetDraft,
  rowFromSubBudget,
  serverInvalid,
  type SubBudgetDraft,
  SubBudgetEditStore,
  type SubBudgetEditSession,
  type SubBudgetRow,
} from '../sub-budget-edit';

/**
 * Inline editing of the sub-budgets (spec 2, section 4): one row at a time, checked by its draft's
 * rules, saved, and the server's refusals shown on the fields they concern.
 */
export function useSubBudgetEditing({
  documentId,
  schemeId,
  subBudgets,
  columns,
  gridApi,
  onSaved,
}: {
  documentId: string;
  schemeId: string;
  subBudgets: readonly SubBudget[] | undefined;
  columns: SchemeColumn[];
  gridApi: RefObject<GridApi<SubBudgetRow> | null>;
  onSaved: () => void;
}) {
  const intl = useIntl();
  const { showError } = useToasts();
  const saved = useMemo(() => (subBudgets ?? []).map((subBudget) => rowFromSubBudget(subBudget, columns)), [subBudgets, columns]);
  const rowEditing = useInlineRowEditing<SubBudgetRow, SubBudgetDraft>({
    createStore: () => new SubBudgetEditStore(),
    saved,
    // The new or duplicated row is added on top: the grid shows its top.
    onStart: (_row, mode) => {
      if (mode !== 'editing') window.requestAnimationFrame(() => gridApi.current?.ensureIndexVisible(0, 'top'));
    },
  });
  const { store, submit } = rowEditing;
  const save = useSaveSubBudget<SubBudgetEditSession>(documentId, schemeId, {
    onSaved: (result, editing) => {
      rowEditing.finishSaved(editing, result?.id);
      onSaved();
    },
    onError: (error) => {
      store.setInvalid(serverInvalid(error, columns));
      showError(error);
    },
  });

  const fields = useMemo(
    () =>
      Object.fromEntries([NAME_FIELD, COMBINATION_FIELD, ...columns.map((column) => column.classifierId)].map((field) => [field, true])) as Record<
        string,
        unknown
      >,
    [columns],
  );
  const onSave = useCallback(
    () =>
      submit({
        parse: (draft) => parseSubBudgetDraft(draft, columns),
        fields,
        send: (editing, payload: SubBudgetPayload) => save.mutate({ id: editing.mode === 'editing' ? editing.key : null, payload, context: editing }),
      }),
    [submit, columns, fields, save.mutate],
  );
  const fieldLabel = (field: string) =>
    field === NAME_FIELD
      ? intl.formatMessage({ id: 'subBudgets.column.name' })
      : field === COMBINATION_FIELD
        ? intl.formatMessage({ id: 'subBudgets.column.combination' })
        : (columns.find((column) => column.classifierId === field)?.name ?? field);

  return { rowEditing, onSave, fieldLabel };
}
