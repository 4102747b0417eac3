import type { BudgetTypeValue } from '@eelarve/shared';
import { useIntl } from 'react-intl';
import { CommonBudgetIcon, MonitoringBudgetIcon, SumBudgetIcon } from '../../components/document-icons';

/** A budget's type as its icon, named by the type. */
export function BudgetTypeIcon({ type }: { type: BudgetTypeValue }) {
  const intl = useIntl();
  return (
    <span
      className={`budget-type budget-type-${type.toLowerCase()}`}
      title={intl.formatMessage({ id: `budgets.type.${type}` })}
      data-testid="budget-type"
      data-type={type}
    >
      {type === 'COMMON' ? <CommonBudgetIcon /> : type === 'SUM_BUDGET' ? <SumBudgetIcon /> : <MonitoringBudgetIcon />}
    </span>
  );
}
