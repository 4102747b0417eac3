import type { Classifier, ClassifierItem } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import type { RowSelectionOptions, SelectionChangedEvent } from 'ag-grid-community';
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmActionDialog } from '../../components/ConfirmAction';
import { GridToolbar } from '../../grid/GridToolbar';
import { QueryGrid } from '../../grid/QueryGrid';
import { useGridSearch } from '../../grid/search';
import { useDeleteItems, useRefreshClassifiers } from './api/mutations';
import { itemsQuery } from './api/queries';
import { ImportModal } from './ImportModal';
import { type ItemFormMode, ItemModal } from './ItemModal';
import type { Notice } from './notice';
import { type ItemsGridContext, useItemColumns } from './ItemColumns';
import { itemInUse } from './rules';

const itemSearchTexts = (item: ClassifierItem) => [item.code, item.name, item.description, ...item.groupedBy.map((ref) => ref.code)];

/** The selected classifier's items: search, add, bulk edit and delete, import (spec 2, section 5). */
export function ItemsSection({
  documentId,
  classifier,
  classifiers,
  canEdit,
  onSuccess,
}: {
  documentId: string;
  classifier: Classifier;
  classifiers: Classifier[];
  canEdit: boolean;
  onSuccess: (notice: Notice | null) => void;
}) {
  const intl = useIntl();
  const items = useQuery(itemsQuery(classifier.id));
  const { search, setSearch, rows } = useGridSearch(items.data, itemSearchTexts);
  const [selection, setSelection] = useState<ClassifierItem[]>([]);
  const [form, setForm] = useState<ItemFormMode | null>(null);
  const [importing, setImporting] = useState(false);
  const refresh = useRefreshClassifiers();
  const groupings = useMemo(() => classifiers.filter((other) => classifier.groupedByIds.includes(other.id)), [classifiers, classifier]);
  const { one: removeOne, many: removeMany } = useDeleteItems(classifier.id, {
    one: () => onSuccess({ key: 'classifiers.items.deleteSuccess' }),
    many: () => {
      setSelection([]);
      onSuccess({ key: 'classifiers.items.deleteSelectedSuccess' });
    },
  });

  const columns = useItemColumns(groupings, canEdit);
  const context = useMemo<ItemsGridContext>(
    () => ({ canEdit, onEdit: (item) => setForm({ kind: 'edit', item }), onDelete: removeOne.ask }),
    [canEdit, removeOne.ask],
  );
  const rowSelection = useMemo<RowSelectionOptions<ClassifierItem> | undefined>(
    () => (canEdit ? { mode: 'multiRow', enableClickSelection: false } : undefined),
    [canEdit],
  );
  const selectedInUse = selection.some(itemInUse);

  return (
    <div className="classifier-items" data-testid="classifier-items">
      <GridToolbar
        searchLabel="classifiers.items.search"
        search={search}
        onSearch={setSearch}
        searchTestId="items-search"
        info={
          items.data ? (
            <span className="muted" data-testid="items-count">
              <FormattedMessage id="classifiers.items.count" values={{ count: rows.length }} />
            </span>
          ) : null
        }
        add={canEdit ? { label: 'classifiers.items.add', testId: 'item-add', onClick: () => setForm({ kind: 'add' }) } : undefined}
      />
      {canEdit ? (
        <div className="toolbar classifier-items-actions">
          <div className="toolbar-start">
            <button
              type="button"
              className="button button-small"
              disabled={selection.length === 0}
              onClick={() => setForm({ kind: 'bulk', items: selection })}
              data-testid="items-edit-selected"
            >
              <FormattedMessage id="classifiers.items.editSelected" values={{ count: selection.length }} />
            </button>
            <span title={selectedInUse ? intl.formatMessage({ id: 'classifiers.items.someInUse' }) : undefined} data-testid="items-delete-selected-tooltip">
              <button
                type="button"
                className="button button-small button-danger"
                disabled={selection.length === 0 || selectedInUse}
                onClick={() => removeMany.ask(selection)}
                data-testid="items-delete-selected"
              >
                <FormattedMessage id="classifiers.items.deleteSelected" values={{ count: selection.length }} />
              </button>
            </span>
          </div>
          <button type="button" className="button" onClick={() => setImporting(true)} data-testid="items-import">
            <FormattedMessage id="classifiers.items.import" />
          </button>
        </div>
      ) : null}
      <QueryGrid<ClassifierItem>
        query={items}
        rows={rows}
        loadFailed="classifiers.items.loadFailed"
        testId="items-grid"
        height="50vh"
        columnDefs={columns}
        context={context}
        rowSelection={rowSelection}
        onSelectionChanged={(event: SelectionChangedEvent<ClassifierItem>) => setSelection(event.api.getSelectedRows())}
        tooltipShowDelay={300}
      />

      {form ? (
        <ItemModal
          classifier={classifier}
          classifiers={classifiers}
          items={items.data ?? []}
          mode={form}
          onClose={() => setForm(null)}
          onSaved={async (key) => {
            await refresh();
            onSuccess({ key });
          }}
        />
      ) : null}
      {importing ? (
        <ImportModal
          documentId={documentId}
          classifier={classifier}
          classifiers={classifiers}
          onClose={() => setImporting(false)}
          onImported={async (count) => {
            await refresh();
            onSuccess({ key: 'classifiers.import.uploadSuccess', values: { count } });
          }}
          onFailed={() => onSuccess({ key: 'classifiers.import.uploadFailed', failed: true })}
        />
      ) : null}
      <ConfirmActionDialog
        action={removeOne}
        testId="item-delete-dialog"
        title={<FormattedMessage id="classifiers.items.delete.title" />}
        message={(item) => <FormattedMessage id="classifiers.items.delete.question" values={{ code: item.code, name: item.name }} />}
        confirmLabel={<FormattedMessage id="common.delete" />}
        failedTitle={<FormattedMessage id="classifiers.items.deleteError" />}
        errorTestId="item-delete-error"
      />
      <ConfirmActionDialog
        action={removeMany}
        testId="items-delete-dialog"
        title={<FormattedMessage id="classifiers.items.deleteSelected.title" />}
        message={(selected) => <FormattedMessage id="classifiers.items.deleteSelected.question" values={{ count: selected.length }} />}
        confirmLabel={<FormattedMessage id="common.delete" />}
        failedTitle={<FormattedMessage id="classifiers.items.deleteSelectedError" />}
        errorTestId="items-delete-error"
      />
    </div>
  );
}
