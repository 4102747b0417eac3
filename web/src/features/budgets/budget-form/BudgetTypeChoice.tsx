import { BUDGET_TYPE_VALUES, type BudgetTypeValue } from '@eelarve/shared';
import { useId } from 'react';
import { FormattedMessage } from 'react-intl';
import { BudgetTypeIcon } from '../BudgetTypeIcon';

/** The budget type as three large radio choices; fixed once the budget exists. */
export function BudgetTypeChoice({ value, onChange, disabled }: { value: BudgetTypeValue; onChange: (type: BudgetTypeValue) => void; disabled: boolean }) {
  const name = useId();
  return (
    <fieldset className="fieldset">
      <legend>
        <FormattedMessage id="budgets.field.type" />
      </legend>
      <div className="budget-type-choices" role="radiogroup">
        {BUDGET_TYPE_VALUES.map((type) => (
          <label key={type} className={value === type ? 'budget-type-choice selected' : 'budget-type-choice'}>
            <input
              type="radio"
              name={name}
              value={type}
              checked={value === type}
              disabled={disabled}
              onChange={() => onChange(type)}
              data-testid={`budget-type-${type}`}
            />
            <BudgetTypeIcon type={type} />
            <span>
              <FormattedMessage id={`budgets.type.${type}`} />
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
