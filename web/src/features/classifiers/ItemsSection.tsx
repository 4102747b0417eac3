import type { Classifier, ClassifierItem } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import type { ColDef, RowSelectionOptions, SelectionChangedEvent } from 'ag-grid-community';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmActionDialog } from '../../components/ConfirmAction';
import { IconAction } from '../../components/IconAction';
import { EditIcon, TrashIcon } from '../../components/icons';
import { textComparator } from '../../grid/columns';
import { GridToolbar } from '../../grid/GridToolbar';
import { QueryGrid } from '../../grid/QueryGrid';
import { useGridSearch } from '../../grid/search';
import { useLocale } from '../../i18n/I18nProvider';
import { useDeleteItems, useRefreshClassifiers } from './api/mutations';
import { itemsQuery } from './api/queries';
import { ImportModal } from './ImportModal';
import { type ItemFormMode, ItemModal } from './ItemModal';
import type { Notice } from './notice';
import { itemInUse } from './rules';

interface ItemsGridContext {
  canEdit: boolean;
  onEdit: (item: ClassifierItem) => void;
  onDelete: (item: ClassifierItem) => void;
}

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
  const { locale } = useLocale();
  const items = useQuery(itemsQuery(classifier.id));
  const { search, setSearch, rows } = useGridSearch(items.data, itemSearchTexts);
  const [selection, setSelection] = useState<ClassifierItem[]>([]);
  const [form, setForm] = useState<ItemFormMode | null>(null);
  const [importing, setImporting] = useState(false);
  const refresh = useRefreshClassifiers();
  const groupings = classifiers.filter((other) => classifier.groupedByIds.includes(other.id));
  const { one: removeOne, many: removeMany } = useDeleteItems(classifier.id, {
    one: () => onSuccess({ key: 'classifiers.items.deleteSuccess' }),
    many: () => {
      setSelection([]);
      onSuccess({ key: 'classifiers.items.deleteSelectedSuccess' });
    },
  });

  const columns = useMemo<ColDef<ClassifierItem>[]>(() => {
    const text = textComparator(locale);
    const definitions: ColDef<ClassifierItem>[] = [
      { colId: 'code', field: 'code', headerName: intl.formatMessage({ id: 'classifiers.items.column.code' }), width: 140, sort: 'asc', comparator: text, cellClass: 'item-code' },
      { colId: 'name', field: 'name', headerName: intl.formatMessage({ id: 'classifiers.items.column.name' }), flex: 1.4, minWidth: 180, comparator: text },
      { colId: 'description', field: 'description', headerName: intl.formatMessage({ id: 'classifiers.items.column.description' }), flex: 1, minWidth: 160 },
      {
        colId: 'sign',
        field: 'sign',
        headerName: intl.formatMessage({ id: 'classifiers.items.column.sign' }),
        width: 90,
        valueFormatter: ({ value }) => (value === 1 ? '+' : value === -1 ? '−' : ''),
      },
      {
        colId: 'unselectable',
        field: 'unselectable',
        headerName: intl.formatMessage({ id: 'classifiers.items.column.unselectable' }),
        width: 130,
        valueFormatter: ({ value }) => (value ? intl.formatMessage({ id: 'common.yes' }) : ''),
      },
      ...groupings.map<ColDef<ClassifierItem>>((grouping) => ({
        colId: `grouping-${grouping.id}`,
        headerName: grouping.name,
        width: 150,
        valueGetter: ({ data }) => data?.groupedBy.find((ref) => ref.classifierId === grouping.id)?.code ?? '',
      })),
    ];
    if (canEdit) {
      definitions.push({
        colId: 'actions',
        headerName: intl.formatMessage({ id: 'classifiers.items.column.actions' }),
        headerClass: 'visually-hidden-header',
        width: 100,
        sortable: false,
        resizable: false,
        cellRenderer: ItemActionsCell,
        cellClass: 'actions-cell',
      });
    }
    return definitions;
  }, [intl, locale, canEdit, groupings]);

  const context = useMemo<ItemsGridContext>(() => ({ canEdit, onEdit: (item) => setForm({ kind: 'edit', item }), onDelete: removeOne.ask }), [canEdit, removeOne.ask]);
  const rowSelection = useMemo<RowSelectionOptions<ClassifierItem> | undefined>(() => (canEdit ? { mode: 'multiRow', enableClickSelection: false } : undefined), [canEdit]);
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
            <button type="button" className="button button-small" disabled={selection.length === 0} onClick={() => setForm({ kind: 'bulk', items: selection })} data-testid="items-edit-selected">
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

function ItemActionsCell({ data, context }: CustomCellRendererProps<ClassifierItem, unknown, ItemsGridContext>) {
  const intl = useIntl();
  if (!data || !context.canEdit) return null;
  const inUse = itemInUse(data);
  return (
    <div className="row-actions">
      <IconAction label={intl.formatMessage({ id: 'classifiers.items.action.edit' })} onClick={() => context.onEdit(data)} testId="item-edit">
        <EditIcon />
      </IconAction>
      <IconAction
        label={intl.formatMessage({ id: 'classifiers.items.action.delete' })}
        title={inUse ? intl.formatMessage({ id: 'classifiers.items.inUse' }) : undefined}
        disabled={inUse}
        danger
        onClick={() => context.onDelete(data)}
        testId="item-delete"
      >
        <TrashIcon />
      </IconAction>
    </div>
  );
}
