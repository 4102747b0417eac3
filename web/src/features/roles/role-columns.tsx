import type { ColDef, SuppressKeyboardEventParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { actionsColumn, textComparator } from '../../grid/columns';
import { useLocale } from '../../i18n/I18nProvider';
import { RoleActionsCell, RoleNameCell, RolePrivilegesCell, RolePrivilegesEditor, RoleTextEditor } from './cells';
import { type RoleEditStore, type RoleRow, shownValue } from './edit-state';

/**
 * The roles grid's columns: name, description and privileges, editable only in the row being edited
 * (never the admin role), and the actions column for those who may edit.
 */
export function useRoleColumns(canEdit: boolean, store: RoleEditStore) {
  const intl = useIntl();
  const { locale } = useLocale();
  return useMemo<ColDef<RoleRow>[]>(() => {
    const editable = ({ data }: { data?: RoleRow }) => canEdit && data !== undefined && data.type !== 'ADMIN' && store.current?.key === data.key;
    // Enter and Escape belong to the editors (save, cancel); Tab stays inside the edited row.
    const keys = (first: boolean, last: boolean) => (params: SuppressKeyboardEventParams<RoleRow>) => {
      if (!params.editing) return false;
      const { key, shiftKey } = params.event;
      if (key === 'Enter' || key === 'Escape') return true;
      return key === 'Tab' && ((last && !shiftKey) || (first && shiftKey));
    };
    const text = textComparator(locale);
    const definitions: ColDef<RoleRow>[] = [
      {
        colId: 'name',
        field: 'name',
        headerName: intl.formatMessage({ id: 'roles.column.name' }),
        flex: 1.2,
        minWidth: 220,
        sort: 'asc',
        comparator: text,
        valueGetter: ({ data }) => (data ? shownValue(store.current, data, 'name') : ''),
        cellRenderer: RoleNameCell,
        cellEditor: RoleTextEditor,
        editable,
        suppressKeyboardEvent: keys(true, false),
      },
      {
        colId: 'description',
        field: 'description',
        headerName: intl.formatMessage({ id: 'roles.column.description' }),
        flex: 1.5,
        minWidth: 220,
        comparator: text,
        valueGetter: ({ data }) => (data ? shownValue(store.current, data, 'description') : ''),
        tooltipValueGetter: ({ value }) => (typeof value === 'string' && value.length > 40 ? value : undefined),
        cellEditor: RoleTextEditor,
        editable,
        suppressKeyboardEvent: keys(false, false),
      },
      {
        colId: 'privileges',
        field: 'privilegeIds',
        headerName: intl.formatMessage({ id: 'roles.column.privileges' }),
        flex: 2.6,
        minWidth: 340,
        sortable: false,
        autoHeight: true,
        cellClass: 'chips-cell',
        valueGetter: ({ data }) => (data ? shownValue(store.current, data, 'privilegeIds') : []),
        cellRenderer: RolePrivilegesCell,
        cellEditor: RolePrivilegesEditor,
        editable,
        suppressKeyboardEvent: keys(false, true),
      },
    ];
    if (canEdit) {
      definitions.push({
        ...actionsColumn(intl.formatMessage({ id: 'roles.column.actions' }), 196, RoleActionsCell),
        // Enter and Space press the focused button (save, cancel, edit…), not the grid's own keys.
        suppressKeyboardEvent: ({ event }) => (event.key === 'Enter' || event.key === ' ') && event.target instanceof HTMLButtonElement,
      });
    }
    return definitions;
  }, [intl, locale, canEdit, store]);
}
