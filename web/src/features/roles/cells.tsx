import type { Privilege } from '@eelarve/shared';
import { type CustomCellEditorProps, type CustomCellRendererProps, useGridCellEditor } from 'ag-grid-react';
import { type KeyboardEvent, useEffect, useMemo, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { MultiSelect, type MultiSelectHandle } from '../../components/MultiSelect';
import { canSave } from '../../grid/inline-edit';
import { InlineRowButtons } from '../../grid/InlineEditParts';
import { type DraftField, type RoleEditStore, type RoleRow, useEditSession } from './edit-state';
import { LockIcon, ShieldIcon } from '../../components/icons';
import { PrivilegeChips, usePrivilegeLabel } from './PrivilegeChips';

/** What the cells of the roles table share with the page (a stable object; read at event time). */
export interface RolesGridContext {
  store: RoleEditStore;
  canEdit: boolean;
  /** The privileges the server offers (GET api/privileges), in catalogue order. */
  privilegeIds: Privilege[];
  onEdit: (row: RoleRow) => void;
  onDuplicate: (row: RoleRow) => void;
  onDelete: (row: RoleRow) => void;
  onSave: () => void;
  onCancel: () => void;
}

type RendererProps<TValue> = CustomCellRendererProps<RoleRow, TValue, RolesGridContext>;
type EditorProps<TValue> = CustomCellEditorProps<RoleRow, TValue, RolesGridContext>;

/** Name, with a badge on the administrator role. */
export function RoleNameCell({ data, value }: RendererProps<string>) {
  if (!data) return null;
  return (
    <span className="role-name-cell">
      <span className="role-name" data-testid="role-name">
        {value}
      </span>
      {data.type === 'ADMIN' ? (
        <span className="badge badge-admin badge-icon" data-testid="role-admin-badge">
          <ShieldIcon />
          <FormattedMessage id="roles.adminBadge" />
        </span>
      ) : null}
    </span>
  );
}

export function RolePrivilegesCell({ value }: RendererProps<Privilege[]>) {
  return <PrivilegeChips ids={value ?? []} testId="role-privileges" />;
}

/** Enter saves and Escape cancels the edited row; the grid itself ignores both (see suppressKeyboardEvent). */
function rowKeys(context: RolesGridContext) {
  return (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      context.onSave();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      context.onCancel();
    }
  };
}

/** Inline text editor of the name and description columns. */
export function RoleTextEditor({ value, onValueChange, context, colDef, cellStartedEdit }: EditorProps<string>) {
  const intl = useIntl();
  const session = useEditSession(context.store);
  const inputRef = useRef<HTMLInputElement>(null);
  const field = colDef.field as Extract<DraftField, 'name' | 'description'>;
  const invalid = session?.invalid[field];

  // An edit starts in the name: it gets the focus once the grid has put the editor into the cell.
  useEffect(() => {
    if (field !== 'name' && !cellStartedEdit) return;
    const timer = window.setTimeout(() => {
      inputRef.current?.focus();
      inputRef.current?.select();
    });
    return () => window.clearTimeout(timer);
  }, [field, cellStartedEdit]);
  // Tab moves between the editors of the row.
  useGridCellEditor({ focusIn: () => inputRef.current?.focus() });

  return (
    <div className="cell-editor">
      <input
        ref={inputRef}
        type="text"
        className="cell-input"
        value={value ?? ''}
        maxLength={field === 'name' ? 256 : 4096}
        disabled={session?.saving}
        placeholder={intl.formatMessage({ id: field === 'name' ? 'roles.field.namePlaceholder' : 'roles.field.descriptionPlaceholder' })}
        aria-label={intl.formatMessage({ id: field === 'name' ? 'roles.column.name' : 'roles.column.description' })}
        aria-invalid={invalid ? true : undefined}
        onChange={(event) => {
          onValueChange(event.target.value);
          context.store.update({ [field]: event.target.value });
        }}
        onKeyDown={rowKeys(context)}
        data-testid={`role-${field}-input`}
      />
    </div>
  );
}

/** The privileges column's editor: the translated privileges as a multi-select with chips. */
export function RolePrivilegesEditor({ value, onValueChange, context }: EditorProps<Privilege[]>) {
  const intl = useIntl();
  const label = usePrivilegeLabel();
  const session = useEditSession(context.store);
  const selectRef = useRef<MultiSelectHandle>(null);
  const options = useMemo(() => context.privilegeIds.map((id) => ({ value: id, label: label(id) })), [context.privilegeIds, label]);

  useGridCellEditor({ focusIn: () => selectRef.current?.focus() });

  return (
    <div className="cell-editor">
      <MultiSelect
        ref={selectRef}
        compact
        options={options}
        value={value ?? []}
        onChange={(next) => {
          const ids = next as Privilege[];
          onValueChange(ids);
          context.store.update({ privilegeIds: ids });
        }}
        placeholder={intl.formatMessage({ id: 'roles.privileges.choose' })}
        label={intl.formatMessage({ id: 'roles.privileges.label' })}
        disabled={session?.saving}
        invalid={Boolean(session?.invalid.privilegeIds)}
        onTriggerKeyDown={(event) => {
          if (event.key === 'Escape') rowKeys(context)(event);
        }}
        testId="role-privileges-input"
      />
    </div>
  );
}

/** Save and cancel on the edited row; edit, duplicate and delete on the others. */
export function RoleActionsCell({ data, context }: RendererProps<unknown>) {
  const intl = useIntl();
  const session = useEditSession(context.store);
  if (!data) return null;

  if (session && session.key === data.key) {
    return (
      <div className="row-actions">
        <button type="button" className="button button-primary button-small" disabled={!canSave(session)} onClick={context.onSave} data-testid="role-save">
          <FormattedMessage id="roles.action.save" />
        </button>
        <button type="button" className="button button-small" disabled={session.saving} onClick={context.onCancel} data-testid="role-cancel">
          <FormattedMessage id="roles.action.cancel" />
        </button>
      </div>
    );
  }

  if (data.type === 'ADMIN') {
    return (
      <div className="row-actions">
        <span className="locked-note" title={intl.formatMessage({ id: 'roles.adminLocked' })} data-testid="role-locked">
          <LockIcon />
          <span className="visually-hidden">
            <FormattedMessage id="roles.adminLocked" />
          </span>
        </span>
      </div>
    );
  }

  return (
    <div className="row-actions">
      <InlineRowButtons
        busy={session !== null}
        labels={{ edit: 'roles.action.edit', duplicate: 'roles.action.duplicate', delete: 'roles.action.delete', busy: 'roles.action.busy' }}
        testIdPrefix="role"
        onEdit={() => context.onEdit(data)}
        onDuplicate={() => context.onDuplicate(data)}
        onDelete={() => context.onDelete(data)}
        deleteBlockedTitle={data.inUse ? intl.formatMessage({ id: 'roles.inUse' }) : undefined}
      />
    </div>
  );
}
