import type { ColDef } from 'ag-grid-community';

/** Compares texts as people sort them in `locale` (case and accents aside). */
export function textComparator(locale: string): (a: string, b: string) => number {
  return (a, b) => a.localeCompare(b, locale, { sensitivity: 'base' });
}

/**
 * The last column of a list grid: the row's action buttons or menu. Its header is read by screen
 * readers only; it is neither sorted nor resized.
 */
export function actionsColumn<T>(headerName: string, width: number, cellRenderer: ColDef<T>['cellRenderer']): ColDef<T> {
  return {
    colId: 'actions',
    headerName,
    headerClass: 'visually-hidden-header',
    width,
    sortable: false,
    resizable: false,
    cellRenderer,
    cellClass: 'actions-cell',
  };
}
