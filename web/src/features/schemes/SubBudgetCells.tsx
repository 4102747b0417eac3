import type { ClassifierItem } from '@eelarve/shared';
import type { ICellRendererParams } from 'ag-grid-community';
import { useEffect, useRef } from 'react';
import { useIntl } from 'react-intl';
import { InlineRowButtons, InlineSaveCancelButtons } from '../../grid/InlineEditParts';
import { rowEditorKeys, useInlineEditSession, useRowEditSession } from '../../grid/useInlineRowEditing';
import { IconAction } from '../../components/IconAction';
import type { SchemeColumn } from './model';
import { COMBINATION_FIELD, NAME_FIELD, type SubBudgetEditStore, type SubBudgetRow } from './sub-budget-edit';

/** What the sub-budgets grid's cells read: one stable object refreshed on every render of the panel. */
export interface SubBudgetsGridContext {
  store: SubBudgetEditStore;
  canEdit: boolean;
  /** The selectable items of each classifier (the options of the row's selects). */
  options: ReadonlyMap<string, ClassifierItem[]>;
  onConfigure: (row: SubBudgetRow) => void;
  onEdit: (row: SubBudgetRow) => void;
  onDuplicate: (row: SubBudgetRow) => void;
  onDelete: (row: SubBudgetRow) => void;
  onSave: () => void;
  onCancel: () => void;
}

type Params = ICellRendererParams<SubBudgetRow, unknown, SubBudgetsGridContext>;

const useRowSession = (params: Params) => useRowEditSession(params.context.store, params.data);

export function SubBudgetNameCell(params: Params) {
  const intl = useIntl();
  const session = useRowSession(params);
  const input = useRef<HTMLInputElement>(null);
  const editingKey = session?.key ?? null;
  useEffect(() => {
    // The name editor takes the focus when the row starts being edited.
    if (editingKey) input.current?.focus();
  }, [editingKey]);
  const row = params.data;
  if (!row) return null;
  const { context } = params;
  if (session) {
    const invalid = session.invalid[NAME_FIELD];
    return (
      <input
        ref={input}
        type="text"
        className={invalid ? 'input schemes-cell-input input-invalid' : 'input schemes-cell-input'}
        value={session.draft[NAME_FIELD] ?? ''}
        aria-label={intl.formatMessage({ id: 'subBudgets.column.name' })}
        aria-invalid={invalid ? true : undefined}
        onChange={(event) => context.store.update({ [NAME_FIELD]: event.target.value })}
        onKeyDown={rowEditorKeys(context)}
        data-testid="sub-budget-name-input"
        disabled={session.saving}
      />
    );
  }
  if (row.id === null) return <span>{row.name}</span>;
  return (
    <button type="button" className="link-button" onClick={() => context.onConfigure(row)} data-testid="sub-budget-name">
      {row.name}
    </button>
  );
}

/** A classifier's value: "code – name" when viewed, a select of its selectable items when edited. */
export function SubBudgetClassifierCell(params: Params & { column: SchemeColumn }) {
  const intl = useIntl();
  const session = useRowSession(params);
  const row = params.data;
  if (!row) return null;
  const { context, column } = params;
  if (session) {
    const value = session.draft[column.classifierId] ?? '';
    const invalid = session.invalid[column.classifierId] ?? session.invalid[COMBINATION_FIELD];
    const options = context.options.get(column.classifierId) ?? [];
    // Records carry the sub-budget's classifier values: those are fixed once there are records.
    const locked = session.mode === 'editing' && row.hasRecords;
    return (
      <select
        className={invalid ? 'input schemes-cell-input input-invalid' : 'input schemes-cell-input'}
        value={value}
        aria-label={column.name}
        aria-required={column.type === 'MAIN' ? true : undefined}
        aria-invalid={invalid ? true : undefined}
        onChange={(event) => context.store.update({ [column.classifierId]: event.target.value, [COMBINATION_FIELD]: undefined })}
        onKeyDown={rowEditorKeys(context)}
        disabled={locked || session.saving}
        data-testid={`sub-budget-classifier-${column.fieldName}`}
      >
        <option value="">{intl.formatMessage({ id: column.type === 'MAIN' ? 'subBudgets.choose' : 'subBudgets.none' })}</option>
        {/* A value that is no longer selectable stays shown as it is. */}
        {value !== '' && !options.some((item) => item.code === value) ? <option value={value}>{value}</option> : null}
        {options.map((item) => (
          <option key={item.id} value={item.code}>
            {`${item.code} – ${item.name}`}
          </option>
        ))}
      </select>
    );
  }
  return <span>{params.valueFormatted ?? String(params.value ?? '')}</span>;
}

export function SubBudgetActionsCell(params: Params) {
  const intl = useIntl();
  const session = useInlineEditSession(params.context.store);
  const row = params.data;
  if (!row) return null;
  const { context } = params;
  if (session && session.key === row.key) {
    return (
      <InlineSaveCancelButtons
        session={session}
        labels={{ save: 'subBudgets.action.save', cancel: 'subBudgets.action.cancel' }}
        testIdPrefix="sub-budget"
        onSave={context.onSave}
        onCancel={context.onCancel}
      />
    );
  }
  return (
    <span className="row-actions">
      <IconAction
        label={intl.formatMessage({ id: 'subBudgets.action.preselections' })}
        onClick={() => context.onConfigure(row)}
        testId="sub-budget-preselections"
      >
        <span aria-hidden="true">☰</span>
      </IconAction>
      {context.canEdit ? (
        <InlineRowButtons
          busy={session !== null}
          labels={{
            edit: 'subBudgets.action.edit',
            duplicate: 'subBudgets.action.duplicate',
            delete: 'subBudgets.action.delete',
            busy: 'subBudgets.action.busy',
          }}
          testIdPrefix="sub-budget"
          onEdit={() => context.onEdit(row)}
          onDuplicate={() => context.onDuplicate(row)}
          onDelete={() => context.onDelete(row)}
        />
      ) : null}
    </span>
  );
}
