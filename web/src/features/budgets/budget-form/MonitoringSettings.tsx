import { BUDGET_LIMITS } from '@eelarve/shared';
import { useId, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { CheckboxField, Field, type FieldErrors, TextField } from '../../../components/form';
import { useRevealApiKey } from '../api/mutations';
import type { BudgetView } from '../api/queries';

export interface MonitoringValues {
  gwUrl: string;
  erpUrl: string;
  syncEnabled: boolean;
}

/**
 * A monitoring budget's import settings: its address for everyone; the key, the gateway and ERP
 * addresses and the sync switch for the platform administrator. A status that locks the settings
 * (`locked`) fixes the addresses; the sync switch stays the administrator's, whatever the status.
 */
export function MonitoringSettings({
  budget,
  admin,
  locked,
  values,
  onChange,
  errors,
}: {
  budget: BudgetView;
  admin: boolean;
  locked: boolean;
  values: MonitoringValues;
  onChange: (values: MonitoringValues) => void;
  errors: FieldErrors;
}) {
  const apiUrlId = useId();
  return (
    <fieldset className="fieldset" data-testid="budget-monitoring">
      <legend>
        <FormattedMessage id="budgets.monitoring.title" />
      </legend>
      <Field htmlFor={apiUrlId} labelId="budgets.monitoring.apiUrl">
        <input id={apiUrlId} type="text" value={budget.apiUrl ?? ''} readOnly data-testid="budget-api-url" />
      </Field>
      {admin ? (
        <>
          <ApiKey budgetId={budget.id} />
          <TextField
            labelId="budgets.monitoring.gwUrl"
            inputMode="url"
            value={values.gwUrl}
            max={BUDGET_LIMITS.urlMax}
            onChange={(gwUrl) => onChange({ ...values, gwUrl })}
            disabled={locked}
            error={errors.gwUrl}
            testId="budget-gw-url"
          />
          <TextField
            labelId="budgets.monitoring.erpUrl"
            inputMode="url"
            value={values.erpUrl}
            max={BUDGET_LIMITS.urlMax}
            onChange={(erpUrl) => onChange({ ...values, erpUrl })}
            disabled={locked}
            error={errors.erpUrl}
            testId="budget-erp-url"
          />
          <CheckboxField checked={values.syncEnabled} onChange={(syncEnabled) => onChange({ ...values, syncEnabled })} testId="budget-sync">
            <FormattedMessage id="budgets.monitoring.sync" />
          </CheckboxField>
        </>
      ) : null}
    </fieldset>
  );
}

/** The import key stays hidden until the administrator asks for it. */
function ApiKey({ budgetId }: { budgetId: string }) {
  const [apiKey, setApiKey] = useState<string | null>(null);
  const reveal = useRevealApiKey(budgetId, setApiKey);
  return (
    <div className="field">
      <span className="field-label">
        <FormattedMessage id="budgets.monitoring.apiKey" />
      </span>
      {apiKey ? (
        <code className="api-key" data-testid="budget-api-key">
          {apiKey}
        </code>
      ) : (
        <button type="button" className="button" onClick={() => reveal.mutate()} disabled={reveal.isPending} data-testid="budget-api-key-reveal">
          <FormattedMessage id="budgets.monitoring.revealKey" />
        </button>
      )}
    </div>
  );
}
