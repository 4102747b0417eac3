import type { Classifier, ClassifierItem } from '@eelarve/shared';
import type { ColDef } from 'ag-grid-community';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { IconAction } from '../../components/IconAction';
import { EditIcon, TrashIcon } from '../../components/icons';
import { textComparator } from '../../grid/columns';
import { useLocale } from '../../i18n/I18nProvider';
import { itemInUse } from './rules';

/** What the items table's action cells get from the section. */
export interface ItemsGridContext {
  canEdit: boolean;
  onEdit: (item: ClassifierItem) => void;
  onDelete: (item: ClassifierItem) => void;
}

/** The items table's columns: code, name, description, sign, unselectable, one per grouping classifier, and actions for editors. */
export function useItemColumns(groupings: readonly Classifier[], canEdit: boolean): ColDef<ClassifierItem>[] {
  const intl = useIntl();
  const { locale } = useLocale();
  return useMemo<ColDef<ClassifierItem>[]>(() => {
    const text = textComparator(locale);
    const definitions: ColDef<ClassifierItem>[] = [
      {
        colId: 'code',
        field: 'code',
        headerName: intl.formatMessage({ id: 'classifiers.items.column.code' }),
        width: 140,
        sort: 'asc',
        comparator: text,
        cellClass: 'item-code',
      },
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
