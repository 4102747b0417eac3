import type { ColDef } from 'ag-grid-community';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { actionsColumn } from '../../grid/columns';
import {
  SchemeActionsCell,
  SchemeDescriptionCell,
  SchemeFieldNameCell,
  SchemeMainCell,
  SchemeNameCell,
  SchemeOrderCell,
  SchemeSecondaryCell,
} from './SchemeCells';
import type { SchemeEditStore, SchemeRow } from './scheme-edit';

/** The schemes table's columns: order (editors), name, technical name, description, main and additional classifiers, sub-budget count, actions (editors). */
export function useSchemeColumns(canEdit: boolean, store: SchemeEditStore): ColDef<SchemeRow>[] {
  const intl = useIntl();
  return useMemo<ColDef<SchemeRow>[]>(() => {
    // The edited row's keys belong to its inputs (typing a space must not select or navigate).
    const suppressKeyboardEvent = ({ data }: { data?: SchemeRow }) => data !== undefined && store.current?.key === data.key;
    const definitions: ColDef<SchemeRow>[] = [];
    if (canEdit) {
      definitions.push({
        colId: 'order',
        headerName: intl.formatMessage({ id: 'schemes.column.order' }),
        width: 120,
        sortable: false,
        // Saved rows can be dragged while no row is edited (or moved with the arrows).
        rowDrag: ({ data }) => data !== undefined && data.id !== null && store.current === null,
        cellRenderer: SchemeOrderCell,
      });
    }
    definitions.push(
      {
        colId: 'name',
        field: 'name',
        headerName: intl.formatMessage({ id: 'schemes.column.name' }),
        flex: 1.2,
        minWidth: 150,
        sortable: false,
        cellRenderer: SchemeNameCell,
        suppressKeyboardEvent,
      },
      {
        colId: 'fieldName',
        field: 'fieldName',
        headerName: intl.formatMessage({ id: 'schemes.column.fieldName' }),
        flex: 1,
        minWidth: 120,
        sortable: false,
        cellRenderer: SchemeFieldNameCell,
        suppressKeyboardEvent,
      },
      {
        colId: 'description',
        field: 'description',
        headerName: intl.formatMessage({ id: 'schemes.column.description' }),
        flex: 1,
        minWidth: 110,
        sortable: false,
        cellRenderer: SchemeDescriptionCell,
        suppressKeyboardEvent,
      },
      {
        colId: 'main',
        headerName: intl.formatMessage({ id: 'schemes.column.main' }),
        flex: 1.3,
        minWidth: 150,
        sortable: false,
        cellRenderer: SchemeMainCell,
        suppressKeyboardEvent,
      },
      {
        colId: 'secondary',
        headerName: intl.formatMessage({ id: 'schemes.column.secondary' }),
        flex: 1.3,
        minWidth: 150,
        sortable: false,
        cellRenderer: SchemeSecondaryCell,
        suppressKeyboardEvent,
      },
      { colId: 'subBudgets', field: 'subBudgetsCount', headerName: intl.formatMessage({ id: 'schemes.column.subBudgets' }), width: 110, sortable: false },
    );
    if (canEdit) {
      definitions.push({
        ...actionsColumn(intl.formatMessage({ id: 'schemes.column.actions' }), 130, SchemeActionsCell),
        // Enter and Space press the focused button, not the grid's own keys.
        suppressKeyboardEvent: ({ event }) => (event.key === 'Enter' || event.key === ' ') && event.target instanceof HTMLButtonElement,
      });
    }
    return definitions;
  }, [intl, canEdit, store]);
}
