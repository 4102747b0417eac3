import type { SubBudget } from '@eelarve/shared';
import type { ICellRendererParams } from 'ag-grid-community';
import { useIntl } from 'react-intl';
import { Link } from 'react-router';
import { ShieldIcon } from '../../components/icons';

/** What the pin and name cells get from the sub-budgets tab. */
export interface PinContext {
  canPin: boolean;
  busy: boolean;
  /** The sub-budget's records (DATA_VIEW, spec 3 section 6); absent for others, who see the name only. */
  recordsPath?: (subBudgetId: string) => string;
  onToggle: (row: SubBudget) => void;
  /** The sub-budget's permissions page (USER_VIEW or USER_ADMIN); absent for others. */
  permissionsPath?: (subBudgetId: string) => string;
}

type Params = ICellRendererParams<SubBudget, unknown, PinContext>;

/** The row of records that fit no sub-budget of the scheme (spec 2: id -2): no pin, no permissions of its own. */
export const UNFIT_ROW_ID = '-2';

/** The sub-budget's name, leading to its records. */
export function NameLinkCell({ data, context }: Params) {
  const intl = useIntl();
  if (!data) return null;
  const name = data.id === UNFIT_ROW_ID ? intl.formatMessage({ id: 'records.unfit' }) : data.name;
  if (!context.recordsPath) return <span data-testid="budget-sub-budget-name">{name}</span>;
  return (
    <Link to={context.recordsPath(data.id)} data-testid="budget-sub-budget-name">
      {name}
    </Link>
  );
}

/** The pin toggle: a pinned sub-budget is the budget's own. */
export function PinCell({ data, context }: Params) {
  const intl = useIntl();
  if (!data || data.id === UNFIT_ROW_ID) return null;
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

/** Spec 2, section 6: the sub-budget permissions button opens /users/budget-permissions at this sub-budget in a new tab. */
export function PermissionsLinkCell({ data, context }: Params) {
  const intl = useIntl();
  if (!data || data.id === UNFIT_ROW_ID || !context.permissionsPath) return null;
  const label = intl.formatMessage({ id: 'permissions.subBudgetButton' }, { name: data.name });
  return (
    <a
      className="icon-button"
      href={context.permissionsPath(data.id)}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={label}
      title={label}
      data-testid="budget-sub-budget-permissions"
    >
      <ShieldIcon />
    </a>
  );
}
