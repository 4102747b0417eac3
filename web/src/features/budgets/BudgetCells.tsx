import { BUDGET_LIMITS } from '@eelarve/shared';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { type KeyboardEvent, useState } from 'react';
import { useIntl } from 'react-intl';
import { Link } from 'react-router';
import { IconAction } from '../../components/IconAction';
import { EditIcon, TrashIcon } from '../../components/icons';
import { type BudgetView, budgetLink } from './api/queries';
import { budgetLockReason, canDeleteBudget, canEditBudget, canOpenBudget, canTagBudget } from './budget-access';
import type { StatusDisplay } from './status-filter';

/** What the budget list's cells get from the list. */
export interface BudgetsGridContext {
  documentId: string;
  canWrite: boolean;
  deletingId: string | null;
  /** Rows of budgets just created, highlighted for a few seconds. */
  highlighted: ReadonlySet<string>;
  onEdit: (budget: BudgetView) => void;
  onDelete: (budget: BudgetView) => void;
  onTags: (budget: BudgetView, tags: string[]) => void;
  /** The organisation's resource statuses by id (empty where it does not use statuses). */
  statuses: ReadonlyMap<string, StatusDisplay>;
}

/** The budget's name, a link when it may be opened; plain text where read is disabled (spec 2, Budget list table). */
export function BudgetNameCell({ data, context }: CustomCellRendererProps<BudgetView, string, BudgetsGridContext>) {
  if (!data) return null;
  if (!canOpenBudget(data.permissions)) return <span data-testid="budget-name">{data.name}</span>;
  return (
    <Link to={budgetLink(context.documentId, data)} className="grid-link" data-testid="budget-name">
      {data.name}
    </Link>
  );
}

/** The budget's resource status: its icon and its name in the UI language (spec 2, Budget list table). */
export function BudgetStatusCell({ data, context }: CustomCellRendererProps<BudgetView, string, BudgetsGridContext>) {
  const status = data?.resourceStatusId ? context.statuses.get(data.resourceStatusId) : undefined;
  if (!status) return null;
  return (
    <span className="budget-status" data-testid="budget-status" data-status-id={status.id}>
      {status.glyph ? (
        <span className="budget-status-icon" aria-hidden="true">
          {status.glyph}
        </span>
      ) : null}
      <span data-testid="budget-status-name">{status.name}</span>
    </span>
  );
}

/** The tags, removable and added in place by those who may change the budget. */
export function TagsCell({ data, context }: CustomCellRendererProps<BudgetView, string, BudgetsGridContext>) {
  const intl = useIntl();
  const [draft, setDraft] = useState('');
  if (!data) return null;
  const editable = context.canWrite && canTagBudget(data.permissions);
  const full = data.tags.length >= BUDGET_LIMITS.tagsMax;
  const add = () => {
    const tag = draft.trim();
    setDraft('');
    if (!tag || data.tags.includes(tag) || full) return;
    context.onTags(data, [...data.tags, tag]);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  };
  return (
    <span className="tags-cell" data-testid="budget-tags">
      {data.tags.map((tag) => (
        <span key={tag} className="tag" data-testid="budget-tag">
          <span data-testid="budget-tag-text">{tag}</span>
          {editable ? (
            <button
              type="button"
              className="tag-remove"
              aria-label={intl.formatMessage({ id: 'budgets.tags.remove' }, { tag })}
              onClick={() =>
                context.onTags(
                  data,
                  data.tags.filter((other) => other !== tag),
                )
              }
              data-testid="budget-tag-remove"
            >
              ×
            </button>
          ) : null}
        </span>
      ))}
      {editable && !full ? (
        <input
          className="tag-input"
          value={draft}
          maxLength={BUDGET_LIMITS.tagMaxLength}
          placeholder={intl.formatMessage({ id: 'budgets.tags.add' })}
          aria-label={intl.formatMessage({ id: 'budgets.tags.add' })}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          onBlur={add}
          data-testid="budget-tag-input"
        />
      ) : null}
    </span>
  );
}

/** Edit and delete, each greyed with the reason when the grants or the statuses refuse it. */
export function BudgetActionsCell({ data, context }: CustomCellRendererProps<BudgetView, unknown, BudgetsGridContext>) {
  const intl = useIntl();
  if (!data) return null;
  const editable = canEditBudget(data.permissions);
  const deletable = canDeleteBudget(data.permissions);
  const reason = intl.formatMessage({ id: budgetLockReason(data.permissions) });
  return (
    <span className="row-actions">
      <IconAction
        label={intl.formatMessage({ id: 'common.edit' })}
        title={editable ? undefined : reason}
        disabled={!editable}
        onClick={() => context.onEdit(data)}
        testId="budget-edit"
      >
        <EditIcon />
      </IconAction>
      <IconAction
        label={intl.formatMessage({ id: 'common.delete' })}
        title={deletable ? undefined : reason}
        disabled={!deletable}
        danger
        onClick={() => context.onDelete(data)}
        testId="budget-delete"
      >
        <TrashIcon />
      </IconAction>
    </span>
  );
}
