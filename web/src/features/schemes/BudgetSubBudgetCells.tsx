import type { SubBudget } from '@eelarve/shared';
import type { ICellRendererParams } from 'ag-grid-community';
import { useIntl } from 'react-intl';
import { Link } from 'react-router';

/** What the pin and name cells get from the sub-budgets tab. */
export interface PinContext {
  canPin: boolean;
  busy: boolean;
  recordsPath: (subBudgetId: string) => string;
  onToggle: (row: SubBudget) => void;
}

type Params = ICellRendererParams<SubBudget, unknown, PinContext>;

/** The sub-budget's name, leading to its records. */
export function NameLinkCell({ data, context }: Params) {
  if (!data) return null;
  return (
    <Link to={context.recordsPath(data.id)} data-testid="budget-sub-budget-name">
      {data.name}
    </Link>
  );
}

/** The pin toggle: a pinned sub-budget is the budget's own. */
export function PinCell({ data, context }: Params) {
  const intl = useIntl();
  if (!data) return null;
  const label = intl.formatMessage({ id: data.pinned ? 'budgetSubBudgets.unpin' : 'budgetSubBudgets.pin' });
  return (
    <button
      type="button"
      className="icon-button pin-button"
      aria-pressed={data.pinned}
      aria-label={label}
      title={label}
      disabled={!context.canPin || context.busy}
      onClick={() => context.onToggle(data)}
      data-testid="budget-sub-budget-pin"
    >
      <span aria-hidden="true">{data.pinned ? '★' : '☆'}</span>
    </button>
  );
}
