import type { Classifier, RecordInput } from '@eelarve/shared';
import type { GridApi } from 'ag-grid-community';
import { type RefObject, useCallback, useMemo, useRef } from 'react';
import { useIntl } from 'react-intl';
import { useToasts } from '../../components/Toasts';
import { useInlineRowEditing } from '../../grid/useInlineRowEditing';
import { useSaveRecord } from './api/mutations';
import type { SubBudgetRef } from './api/requests';
import type { PeriodYear } from './model/period';
import {
  classifierField,
  classifierIdOf,
  type DecimalSeparator,
  draftOf,
  isClassifierField,
  parseRecordDraft,
  type RecordDraft,
  type RecordDraftField,
  RecordEditStore,
  type RecordEditSession,
  serverInvalid,
} from './model/record-edit';
import { type RecordRow, unsavedRow } from './model/rows';

/**
 * Inline editing of the records (spec 3, section 4): one row at a time in the states viewing,
 * editing, new and duplicating; a new or duplicated row is highlighted 6000 ms; only a changed row
 * can be saved; the server's refusals are shown on the fields they concern.
 */
export function useRecordEditing({
  subBudget,
  saved,
  classifiers,
  fixed,
  separator,
  years,
  gridApi,
}: {
  subBudget: SubBudgetRef;
  saved: RecordRow[];
  /** The classifiers the table edits (not those the sub-budget fixes). */
  classifiers: readonly Classifier[];
  /** The sub-budget's own classifier values: every record made here carries them. */
  fixed: Readonly<Record<string, string>>;
  separator: DecimalSeparator;
  years: readonly PeriodYear[];
  gridApi: RefObject<GridApi<RecordRow> | null>;
}) {
  const intl = useIntl();
  const { showError } = useToasts();
  const duplicatedFrom = useRef(new Map<string, string>());
  const rowEditing = useInlineRowEditing<RecordRow, RecordDraft>({
    createStore: () => new RecordEditStore(separator),
    saved,
    // The new or duplicated row is added on top: the grid shows its top.
    onStart: (_row, mode) => {
      if (mode !== 'editing') window.requestAnimationFrame(() => gridApi.current?.ensureIndexVisible(0, 'top'));
    },
    onFinish: (key) => {
      if (key) duplicatedFrom.current.delete(key);
      // Saving or cancelling from the actions at the far right: the record's name comes back into view.
      gridApi.current?.ensureColumnVisible('name');
    },
  });
  const { store, submit, start, newKey } = rowEditing;

  const save = useSaveRecord<RecordEditSession>(subBudget, {
    onSaved: (result, editing) => rowEditing.finishSaved(editing, result.id),
    onError: (error) => {
      store.setInvalid(serverInvalid(error));
      showError(error);
    },
  });

  const fields = useMemo(
    () =>
      Object.fromEntries(
        ['name', 'amount', 'months', ...classifiers.map((classifier) => classifierField(classifier.id))].map((field) => [field, true]),
      ) as Record<RecordDraftField, unknown>,
    [classifiers],
  );

  const onSave = useCallback(
    () =>
      submit({
        parse: (draft) => parseRecordDraft(draft, { classifiers, separator, editing: store.current?.mode === 'editing' }),
        fields,
        send: (editing, body: RecordInput) =>
          save.mutate({
            recordId: editing.mode === 'editing' ? editing.key : null,
            // A record made in a sub-budget carries its values (the server refuses one that does not).
            body: editing.mode === 'editing' ? body : { ...body, classifiers: { ...fixed, ...body.classifiers } },
            duplicatedFrom: duplicatedFrom.current.get(editing.key),
            context: editing,
          }),
      }),
    [submit, classifiers, separator, fields, save.mutate, fixed, store],
  );

  const onAdd = useCallback(() => {
    const row = unsavedRow(newKey(), { name: '', amount: '', months: null, classifiers: {} }, years);
    start(row, 'new', draftOf(row, classifiers, separator));
  }, [newKey, start, years, classifiers, separator]);

  const onEdit = useCallback((row: RecordRow) => start(row, 'editing', draftOf(row, classifiers, separator)), [start, classifiers, separator]);

  /** A copy starts with the record's values and a copy name: it can be saved as it is. */
  const onDuplicate = useCallback(
    (row: RecordRow) => {
      if (store.current || !row.id) return;
      const name = intl.formatMessage({ id: 'records.copyName' }, { name: row.name });
      const copy = unsavedRow(newKey(), { name, amount: row.amount, months: row.months, classifiers: row.classifiers }, years);
      duplicatedFrom.current.set(copy.key, row.id);
      start(copy, 'duplicating', draftOf(row, classifiers, separator));
      store.update({ name });
    },
    [store, intl, newKey, years, start, classifiers, separator],
  );

  /** The label of a refused field (the alert above the table names it). */
  const fieldLabel = useCallback(
    (field: RecordDraftField) => {
      if (field === 'name') return intl.formatMessage({ id: 'records.column.name' });
      if (field === 'amount') return intl.formatMessage({ id: 'records.column.amount' });
      if (field === 'months') return intl.formatMessage({ id: 'records.field.months' });
      if (isClassifierField(field)) return classifiers.find((classifier) => classifier.id === classifierIdOf(field))?.name ?? field;
      return field;
    },
    [intl, classifiers],
  );

  return { rowEditing, onSave, onAdd, onEdit, onDuplicate, fieldLabel };
}
