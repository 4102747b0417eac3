import type { GridApi, IRowNode } from 'ag-grid-community';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { useLocale } from '../../../i18n/I18nProvider';
import { itemLabel, type SchemeColumn } from '../model';
import type { SubBudgetRow } from '../sub-budget-edit';

interface FilterState {
  selectedOnly: boolean;
  selected: ReadonlySet<string>;
  /** The filter text, lower case ('' for none). */
  text: string;
  rowText: (row: SubBudgetRow) => string;
}

/**
 * The sub-budgets' text filter and show-selected-only switch as the grid's external filter: the
 * edited row always stays visible. The grid reads the state through a ref, so its callbacks stay put.
 */
export function useSubBudgetFilter({
  gridApi,
  columns,
  itemsByKey,
  selectedIds,
  editedKey,
}: {
  gridApi: RefObject<GridApi<SubBudgetRow> | null>;
  columns: readonly SchemeColumn[];
  itemsByKey: Parameters<typeof itemLabel>[0];
  selectedIds: readonly string[];
  editedKey: () => string | undefined;
}) {
  const { locale } = useLocale();
  const [filter, setFilter] = useState('');
  const [selectedOnly, setSelectedOnly] = useState(false);
  const filterState = useRef<FilterState>({ selectedOnly: false, selected: new Set(), text: '', rowText: () => '' });
  filterState.current = {
    selectedOnly,
    selected: new Set(selectedIds),
    text: filter.trim().toLocaleLowerCase(locale),
    rowText: (row) =>
      [row.name, ...columns.map((column) => itemLabel(itemsByKey, column.classifierId, row.classifiers[column.classifierId] ?? ''))]
        .join('\u0001')
        .toLocaleLowerCase(locale),
  };
  useEffect(() => {
    void selectedOnly;
    void filter;
    gridApi.current?.onFilterChanged();
  }, [selectedOnly, filter, gridApi]);
  const isExternalFilterPresent = useCallback(() => filterState.current.selectedOnly || filterState.current.text !== '', []);
  const doesExternalFilterPass = useCallback(
    (node: IRowNode<SubBudgetRow>) => {
      const row = node.data;
      if (!row) return false;
      if (row.key === editedKey()) return true;
      const state = filterState.current;
      if (state.selectedOnly && !state.selected.has(row.key)) return false;
      return state.text === '' || state.rowText(row).includes(state.text);
    },
    [editedKey],
  );
  return { filter, setFilter, selectedOnly, setSelectedOnly, isExternalFilterPresent, doesExternalFilterPass };
}
