import type { ColDef } from 'ag-grid-community';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { actionsColumn, textComparator } from '../../../grid/columns';
import { useLocale } from '../../../i18n/I18nProvider';
import { itemLabel, type SchemeColumn } from '../model';
import { SubBudgetActionsCell, SubBudgetClassifierCell, SubBudgetNameCell } from '../SubBudgetCells';
import type { SubBudgetRow } from '../sub-budget-edit';

/** The sub-budgets table's columns: name, one per scheme classifier (main ones starred), actions. */
export function useSubBudgetColumns({
  columns,
  itemsByKey,
  canEdit,
  isEdited,
}: {
  columns: readonly SchemeColumn[];
  itemsByKey: Parameters<typeof itemLabel>[0];
  canEdit: boolean;
  isEdited: (row: SubBudgetRow) => boolean;
}): ColDef<SubBudgetRow>[] {
  const intl = useIntl();
  const { locale } = useLocale();
  return useMemo<ColDef<SubBudgetRow>[]>(() => {
    const text = textComparator(locale);
    // The edited row's keys belong to its editors (typing a space must not select or navigate).
    const suppressKeyboardEvent = ({ data }: { data?: SubBudgetRow }) => data !== undefined && isEdited(data);
    return [
      {
        colId: 'name',
        field: 'name',
        headerName: intl.formatMessage({ id: 'subBudgets.column.name' }),
        flex: 1.4,
        minWidth: 200,
        sort: 'asc',
        comparator: text,
        cellRenderer: SubBudgetNameCell,
        suppressKeyboardEvent,
      },
      ...columns.map<ColDef<SubBudgetRow>>((column) => ({
        colId: `classifier-${column.classifierId}`,
        headerName: column.type === 'MAIN' ? `${column.name} *` : column.name,
        flex: 1,
        minWidth: 160,
        comparator: text,
        valueGetter: ({ data }) => (data ? itemLabel(itemsByKey, column.classifierId, data.classifiers[column.classifierId] ?? '') : ''),
        headerClass: column.type === 'SECONDARY' ? 'secondary-classifier-header' : undefined,
        cellRenderer: SubBudgetClassifierCell,
        cellRendererParams: { column },
        suppressKeyboardEvent,
      })),
      {
        ...actionsColumn(intl.formatMessage({ id: 'subBudgets.column.actions' }), canEdit ? 180 : 70, SubBudgetActionsCell),
        // Enter and Space press the focused button, not the grid's own keys.
        suppressKeyboardEvent: ({ event }) => (event.key === 'Enter' || event.key === ' ') && event.target instanceof HTMLButtonElement,
      },
    ];
  }, [intl, locale, columns, itemsByKey, canEdit, isEdited]);
}
