import type { ColDef, ICellRendererParams, IHeaderParams } from 'ag-grid-community';
import { useIntl } from 'react-intl';
import { canToggleRead, canToggleUpdate, type Grant, toggleState } from './grants';

/** A row of a permission table: one resource for one occupation. */
export interface GrantRow {
  id: string;
  /** The resource or occupation name read with each toggle. */
  label: string;
  grant: Grant;
  /** The user may change grants (USER_ADMIN) and no change is under way. */
  editable: boolean;
  /** An ADMIN occupation holds every grant whatever is given (shown checked and locked). */
  holdsAll?: boolean;
}

export type GrantAction = 'read' | 'update';

export interface GrantGridContext<T extends GrantRow> {
  onToggle: (row: T, action: GrantAction, checked: boolean) => void;
}

type CellParams<T extends GrantRow> = ICellRendererParams<T, unknown, GrantGridContext<T>> & { action: GrantAction };

/**
 * The read or update box of a row. Inherited grants are dimmed and locked (they are removed where
 * they were given); read is locked while update is on (update implies read).
 */
export function GrantToggleCell<T extends GrantRow>({ data, context, action }: CellParams<T>) {
  const intl = useIntl();
  if (!data) return null;
  if (data.holdsAll) return <AdminToggle label={data.label} action={action} />;
  const state = toggleState(data.grant);
  const inherited = action === 'read' ? state.readInherited : state.updateInherited;
  const changeable = action === 'read' ? canToggleRead(state) : canToggleUpdate(state);
  const why = inherited ? 'permissions.inherited' : !changeable ? 'permissions.implied' : undefined;
  return (
    <label className={inherited ? 'grant-toggle grant-inherited' : 'grant-toggle'} title={why ? intl.formatMessage({ id: why }) : undefined}>
      <input
        type="checkbox"
        checked={state[action]}
        disabled={!data.editable || !changeable}
        aria-label={intl.formatMessage({ id: action === 'read' ? 'permissions.toggle.read' : 'permissions.toggle.update' }, { name: data.label })}
        onChange={(event) => context.onToggle(data, action, event.target.checked)}
        data-testid={`grant-${action}`}
        data-inherited={inherited}
      />
    </label>
  );
}

function AdminToggle({ label, action }: { label: string; action: GrantAction }) {
  const intl = useIntl();
  return (
    <label className="grant-toggle grant-inherited" title={intl.formatMessage({ id: 'permissions.adminOccupation' })}>
      <input
        type="checkbox"
        checked
        disabled
        readOnly
        aria-label={intl.formatMessage({ id: action === 'read' ? 'permissions.toggle.read' : 'permissions.toggle.update' }, { name: label })}
        data-testid={`grant-${action}`}
        data-inherited="true"
      />
    </label>
  );
}

/** The header toggle of the update column: grants update on every row shown, or removes their grants. */
export interface HeaderToggle {
  checked: boolean;
  disabled: boolean;
  title: string;
  onToggle: () => void;
  testId: string;
}

export function UpdateHeader({ displayName, toggle }: IHeaderParams & { toggle: HeaderToggle }) {
  return (
    <label className="grant-header" title={toggle.title}>
      <input
        type="checkbox"
        checked={toggle.checked}
        disabled={toggle.disabled}
        aria-label={toggle.title}
        onChange={toggle.onToggle}
        data-testid={toggle.testId}
      />
      <span>{displayName}</span>
    </label>
  );
}

/** The read and update columns; the update column carries the header toggle. */
export function grantColumns<T extends GrantRow>(labels: { read: string; update: string }, toggle: HeaderToggle): ColDef<T>[] {
  const common: ColDef<T> = {
    width: 130,
    sortable: false,
    resizable: false,
    cellRenderer: GrantToggleCell,
    cellClass: 'grant-cell',
    // The box draws the row's grant: as the cell's value, a changed grant (another resource chosen,
    // a change saved) re-draws the cell; without it AG Grid keeps the rows' old boxes.
    valueGetter: ({ data }) => (data ? `${JSON.stringify(data.grant)}|${data.editable}|${data.holdsAll ?? false}` : ''),
  };
  return [
    { ...common, colId: 'read', headerName: labels.read, cellRendererParams: { action: 'read' } },
    {
      ...common,
      colId: 'update',
      headerName: labels.update,
      cellRendererParams: { action: 'update' },
      headerComponent: UpdateHeader,
      headerComponentParams: { toggle },
    },
  ];
}
