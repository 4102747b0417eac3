import type { ICellRendererParams } from 'ag-grid-community';
import { useEffect, useRef } from 'react';
import { useIntl } from 'react-intl';
import { IconAction } from '../../components/IconAction';
import { MultiSelect, type MultiSelectOption } from '../../components/MultiSelect';
import { InlineRowButtons, InlineSaveCancelButtons } from '../../grid/InlineEditParts';
import { type SchemeDraftField, type SchemeEditStore, type SchemeRow, useSchemeEditSession } from './scheme-edit';

/** What the schemes grid's cells read: one stable object refreshed on every render of the tab. */
export interface SchemesGridContext {
  store: SchemeEditStore;
  canEdit: boolean;
  classifierOptions: MultiSelectOption[];
  classifierNames: ReadonlyMap<string, string>;
  selectedId: string | null;
  rowCount: number;
  onSelect: (row: SchemeRow) => void;
  onEdit: (row: SchemeRow) => void;
  onDuplicate: (row: SchemeRow) => void;
  onDelete: (row: SchemeRow) => void;
  onMove: (row: SchemeRow, direction: -1 | 1) => void;
  onSave: () => void;
  onCancel: () => void;
}

type Params = ICellRendererParams<SchemeRow, unknown, SchemesGridContext>;

function useRowSession(params: Params) {
  const session = useSchemeEditSession(params.context.store);
  return session && params.data && session.key === params.data.key ? session : null;
}

function TextCell(params: Params & { field: 'name' | 'fieldName' | 'description' }) {
  const intl = useIntl();
  const session = useRowSession(params);
  const input = useRef<HTMLInputElement>(null);
  const editingKey = session?.key ?? null;
  const { field } = params;
  useEffect(() => {
    // The name editor takes the focus when the row starts being edited.
    if (editingKey && field === 'name') input.current?.focus();
  }, [editingKey, field]);
  const row = params.data;
  if (!row) return null;
  if (session) {
    const invalid = session.invalid[field as SchemeDraftField];
    return (
      <input
        ref={input}
        type="text"
        className={invalid ? 'input schemes-cell-input input-invalid' : 'input schemes-cell-input'}
        value={session.draft[field]}
        aria-label={intl.formatMessage({ id: `schemes.column.${field}` })}
        aria-invalid={invalid ? true : undefined}
        onChange={(event) => params.context.store.update({ [field]: event.target.value })}
        onKeyDown={(event) => {
          if (event.key === 'Enter') params.context.onSave();
          if (event.key === 'Escape') params.context.onCancel();
          event.stopPropagation();
        }}
        data-testid={`scheme-${field}-input`}
        disabled={session.saving}
      />
    );
  }
  if (field === 'name') {
    return (
      <button type="button" className="link-button" onClick={() => params.context.onSelect(row)} data-testid="scheme-name">
        {row.name}
      </button>
    );
  }
  return <span data-testid={`scheme-${field}`}>{row[field]}</span>;
}

export const SchemeNameCell = (params: Params) => <TextCell {...params} field="name" />;
export const SchemeFieldNameCell = (params: Params) => <TextCell {...params} field="fieldName" />;
export const SchemeDescriptionCell = (params: Params) => <TextCell {...params} field="description" />;

function ClassifiersCell(params: Params & { kind: 'main' | 'secondary' }) {
  const intl = useIntl();
  const session = useRowSession(params);
  const row = params.data;
  if (!row) return null;
  const { kind, context } = params;
  if (session) {
    const other = kind === 'main' ? session.draft.secondary : session.draft.main;
    // A scheme with sub-budgets cannot have its classifiers changed (spec 2, section 5).
    const locked = session.mode === 'editing' && row.subBudgetsCount > 0;
    return (
      <MultiSelect
        compact
        options={context.classifierOptions.filter((option) => !other.includes(option.value))}
        value={session.draft[kind]}
        onChange={(value) => context.store.update({ [kind]: value })}
        placeholder={intl.formatMessage({ id: 'schemes.classifiers.placeholder' })}
        label={intl.formatMessage({ id: kind === 'main' ? 'schemes.column.main' : 'schemes.column.secondary' })}
        testId={`scheme-${kind}-input`}
        disabled={locked || session.saving}
        invalid={Boolean(session.invalid[kind])}
      />
    );
  }
  const names = row[kind].map((id) => context.classifierNames.get(id) ?? id);
  return (
    <span className="schemes-chips" data-testid={`scheme-${kind}`}>
      {names.map((name) => (
        <span key={name} className="chip">
          {name}
        </span>
      ))}
    </span>
  );
}

export const SchemeMainCell = (params: Params) => <ClassifiersCell {...params} kind="main" />;
export const SchemeSecondaryCell = (params: Params) => <ClassifiersCell {...params} kind="secondary" />;

export function SchemeOrderCell(params: Params) {
  const intl = useIntl();
  const session = useSchemeEditSession(params.context.store);
  const row = params.data;
  if (!row || row.id === null || !params.context.canEdit) return null;
  const index = params.node.rowIndex ?? 0;
  const busy = session !== null;
  return (
    <span className="schemes-order">
      <IconAction
        label={intl.formatMessage({ id: 'schemes.action.up' })}
        disabled={busy || index === 0}
        onClick={() => params.context.onMove(row, -1)}
        testId="scheme-up"
      >
        <span aria-hidden="true">▲</span>
      </IconAction>
      <IconAction
        label={intl.formatMessage({ id: 'schemes.action.down' })}
        disabled={busy || index >= params.context.rowCount - 1}
        onClick={() => params.context.onMove(row, 1)}
        testId="scheme-down"
      >
        <span aria-hidden="true">▼</span>
      </IconAction>
    </span>
  );
}

export function SchemeActionsCell(params: Params) {
  const intl = useIntl();
  const session = useSchemeEditSession(params.context.store);
  const row = params.data;
  if (!row) return null;
  const { context } = params;
  if (session && session.key === row.key) {
    return (
      <InlineSaveCancelButtons
        session={session}
        labels={{ save: 'schemes.action.save', cancel: 'schemes.action.cancel' }}
        testIdPrefix="scheme"
        onSave={context.onSave}
        onCancel={context.onCancel}
      />
    );
  }
  // Spec 2, section 5: the last scheme of a document and a scheme with sub-budgets cannot be deleted.
  const deleteBlocker = context.rowCount <= 1 ? 'schemes.delete.lastScheme' : row.subBudgetsCount > 0 ? 'schemes.delete.hasSubBudgets' : null;
  return (
    <span className="row-actions">
      <InlineRowButtons
        busy={session !== null}
        labels={{ edit: 'schemes.action.edit', duplicate: 'schemes.action.duplicate', delete: 'schemes.action.delete', busy: 'schemes.action.busy' }}
        testIdPrefix="scheme"
        onEdit={() => context.onEdit(row)}
        onDuplicate={() => context.onDuplicate(row)}
        onDelete={() => context.onDelete(row)}
        deleteBlockedTitle={deleteBlocker && session === null ? intl.formatMessage({ id: deleteBlocker }) : undefined}
      />
    </span>
  );
}
