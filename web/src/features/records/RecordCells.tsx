import type { ClassifierItem } from '@eelarve/shared';
import type { ICellRendererParams } from 'ag-grid-community';
import { useEffect, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { IconAction } from '../../components/IconAction';
import { ChevronDownIcon, StarIcon } from '../../components/icons';
import { InlineRowButtons, InlineSaveCancelButtons } from '../../grid/InlineEditParts';
import { rowEditorKeys, useInlineEditSession, useRowEditSession } from '../../grid/useInlineRowEditing';
import type { RecordsAccess } from './access';
import { CalendarIcon, HistoryIcon } from './record-icons';
import { itemText, type ItemIndex } from './model/grouping';
import { classifierField, type DecimalSeparator, monthsTotal, type RecordEditStore } from './model/record-edit';
import type { RecordRow } from './model/rows';

/** What the records grid's cells read: one stable object refreshed on every render of the page. */
export interface RecordsGridContext {
  store: RecordEditStore;
  access: RecordsAccess;
  items: ItemIndex;
  /** The selectable items of each classifier (the options of the row's selects). */
  options: ReadonlyMap<string, ClassifierItem[]>;
  required: ReadonlySet<string>;
  separator: DecimalSeparator;
  formatAmount: (amount: string) => string;
  onToggleGroup: (groupKey: string) => void;
  onEdit: (row: RecordRow) => void;
  onDuplicate: (row: RecordRow) => void;
  onDelete: (row: RecordRow) => void;
  onPromote: (row: RecordRow) => void;
  onHistory: (row: RecordRow) => void;
  onPeriod: (row: RecordRow) => void;
  /** Opens the monthly split of the edited row. */
  onEditSplit: () => void;
  onSave: () => void;
  onCancel: () => void;
}

type Params = ICellRendererParams<RecordRow, unknown, RecordsGridContext>;

const useRowSession = (params: Params) => useRowEditSession(params.context.store, params.data);

const inputClass = (invalid: string | undefined) => (invalid ? 'input records-cell-input input-invalid' : 'input records-cell-input');

/** The name: a group's toggle and count, the total's label, a record's name (promoted ones starred), or its editor. */
export function RecordNameCell(params: Params) {
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
  if (params.node.rowPinned) {
    return (
      <strong data-testid="records-total-label">
        <FormattedMessage id="records.total" />
      </strong>
    );
  }
  if (row.kind === 'group') {
    const label = intl.formatMessage({ id: row.expanded ? 'records.group.collapse' : 'records.group.expand' }, { name: row.name });
    return (
      <span className="records-group-cell">
        <button
          type="button"
          className="icon-button records-group-toggle"
          aria-expanded={row.expanded}
          aria-label={label}
          title={label}
          onClick={() => context.onToggleGroup(row.groupKey)}
          data-testid="records-group-toggle"
        >
          <ChevronDownIcon className={row.expanded ? undefined : 'records-chevron-collapsed'} />
        </button>
        <strong data-testid="records-group-name">{row.name}</strong>
        <span className="muted records-group-count">
          <FormattedMessage id="records.group.count" values={{ count: row.count }} />
        </span>
      </span>
    );
  }
  if (session) {
    const invalid = session.invalid.name;
    return (
      <input
        ref={input}
        type="text"
        className={inputClass(invalid)}
        value={session.draft.name}
        aria-label={intl.formatMessage({ id: 'records.column.name' })}
        aria-invalid={invalid ? true : undefined}
        onChange={(event) => context.store.update({ name: event.target.value })}
        onKeyDown={rowEditorKeys(context)}
        disabled={session.saving}
        data-testid="record-name-input"
      />
    );
  }
  return (
    <span className={row.depth > 0 ? 'records-name records-name-nested' : 'records-name'} data-testid="record-name">
      {row.promoted ? (
        <span
          className="records-promoted"
          role="img"
          aria-label={intl.formatMessage({ id: 'records.promoted' })}
          title={intl.formatMessage({ id: 'records.promoted' })}
        >
          <StarIcon />
        </span>
      ) : null}
      {row.name}
    </span>
  );
}

/** A classifier's value: "code – name" when viewed, a select of its selectable items when edited. */
export function RecordClassifierCell(params: Params & { classifierId: string; classifierName: string }) {
  const intl = useIntl();
  const session = useRowSession(params);
  const row = params.data;
  if (!row || row.kind === 'group' || params.node.rowPinned) return null;
  const { context, classifierId, classifierName } = params;
  const code = row.classifiers[classifierId] ?? '';
  if (!session) return <span>{code === '' ? '' : itemText(context.items.get(classifierId)?.get(code), code)}</span>;
  const field = classifierField(classifierId);
  const value = session.draft[field] ?? '';
  const invalid = session.invalid[field];
  const options = context.options.get(classifierId) ?? [];
  const required = context.required.has(classifierId);
  return (
    <select
      className={inputClass(invalid)}
      value={value}
      aria-label={classifierName}
      aria-required={required ? true : undefined}
      aria-invalid={invalid ? true : undefined}
      onChange={(event) => context.store.update({ [field]: event.target.value })}
      onKeyDown={rowEditorKeys(context)}
      disabled={session.saving}
      data-testid={`record-classifier-${classifierId}`}
    >
      <option value="">{intl.formatMessage({ id: required ? 'records.choose' : 'records.none' })}</option>
      {/* A value that is no longer selectable stays shown as it is. */}
      {value !== '' && !options.some((item) => item.code === value) ? (
        <option value={value}>{itemText(context.items.get(classifierId)?.get(value), value)}</option>
      ) : null}
      {options.map((item) => (
        <option key={item.id} value={item.code}>
          {itemText(item, item.code)}
        </option>
      ))}
    </select>
  );
}

/** The amount: formatted, or typed; with a monthly split it is the split's sum and not typed. */
export function RecordAmountCell(params: Params) {
  const intl = useIntl();
  const session = useRowSession(params);
  const row = params.data;
  if (!row) return null;
  const { context } = params;
  if (!session) {
    const text = context.formatAmount(row.amount);
    return row.kind === 'group' || params.node.rowPinned ? (
      <strong data-testid="records-sum-amount">{text}</strong>
    ) : (
      <span data-testid="record-amount">{text}</span>
    );
  }
  const { draft } = session;
  const split = draft.months !== null;
  const invalid = session.invalid.amount ?? session.invalid.months;
  const computed = split ? monthsTotal(draft.months ?? [], context.separator) : null;
  const splitLabel = intl.formatMessage({ id: split ? 'records.split.edit' : 'records.split.add' });
  return (
    <span className="records-amount-editor">
      <input
        type="text"
        inputMode="decimal"
        className={inputClass(invalid)}
        value={split ? (computed === null ? '' : context.formatAmount(computed)) : draft.amount}
        aria-label={intl.formatMessage({ id: 'records.column.amount' })}
        aria-invalid={invalid ? true : undefined}
        title={split ? intl.formatMessage({ id: 'records.split.computed' }) : undefined}
        onChange={(event) => context.store.update({ amount: event.target.value })}
        onKeyDown={rowEditorKeys(context)}
        disabled={split || session.saving}
        data-testid="record-amount-input"
      />
      <IconAction label={splitLabel} disabled={session.saving} onClick={context.onEditSplit} testId="record-split">
        <CalendarIcon />
      </IconAction>
    </span>
  );
}

/** A year or quarter sum of the monthly split (of the draft while the row is edited). */
export function RecordPeriodSumCell(params: Params & { sumKey: string; months: readonly number[] }) {
  const session = useRowSession(params);
  const row = params.data;
  if (!row) return null;
  const { context, sumKey, months } = params;
  let sum: string | null | undefined = row.sums[sumKey];
  if (session)
    sum = session.draft.months
      ? monthsTotal(
          months.map((index) => session.draft.months?.[index] ?? ''),
          context.separator,
        )
      : null;
  if (sum == null) return null;
  const text = context.formatAmount(sum);
  return row.kind === 'group' || params.node.rowPinned ? <strong>{text}</strong> : <span>{text}</span>;
}

/** Edit, duplicate, delete, promote, history and the monthly split of a record; save and cancel while it is edited. */
export function RecordActionsCell(params: Params) {
  const intl = useIntl();
  const session = useInlineEditSession(params.context.store);
  const row = params.data;
  if (!row || row.kind === 'group' || params.node.rowPinned) return null;
  const { context } = params;
  if (session && session.key === row.key) {
    return (
      <InlineSaveCancelButtons
        session={session}
        labels={{ save: 'records.action.save', cancel: 'records.action.cancel' }}
        testIdPrefix="record"
        onSave={context.onSave}
        onCancel={context.onCancel}
      />
    );
  }
  const busy = session !== null;
  const promoteLabel = intl.formatMessage({ id: row.promoted ? 'records.action.unpromote' : 'records.action.promote' });
  return (
    <span className="row-actions">
      {context.access.write ? (
        <InlineRowButtons
          busy={busy}
          labels={{ edit: 'records.action.edit', duplicate: 'records.action.duplicate', delete: 'records.action.delete', busy: 'records.action.busy' }}
          testIdPrefix="record"
          onEdit={() => context.onEdit(row)}
          onDuplicate={() => context.onDuplicate(row)}
          onDelete={() => context.onDelete(row)}
        />
      ) : null}
      {context.access.promote ? (
        <span className="icon-action" title={promoteLabel}>
          <button
            type="button"
            className={row.promoted ? 'icon-button records-promote records-promote-on' : 'icon-button records-promote'}
            aria-label={promoteLabel}
            aria-pressed={row.promoted}
            disabled={busy}
            onClick={() => context.onPromote(row)}
            data-testid="record-promote"
          >
            <StarIcon />
          </button>
        </span>
      ) : null}
      <IconAction label={intl.formatMessage({ id: 'records.action.history' })} onClick={() => context.onHistory(row)} testId="record-history">
        <HistoryIcon />
      </IconAction>
      {row.months ? (
        <IconAction label={intl.formatMessage({ id: 'records.action.period' })} onClick={() => context.onPeriod(row)} testId="record-period">
          <CalendarIcon />
        </IconAction>
      ) : null}
    </span>
  );
}
