import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { FormattedMessage } from 'react-intl';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { FieldError, type FieldMessage } from '../../../components/form';
import { Spinner } from '../../../components/Spinner';
import { budgetHierarchyQuery } from '../api/queries';
import { BudgetComponentsGrid } from '../BudgetComponentsGrid';

/** The budgets a sum budget adds up, chosen from the document's hierarchy; the edited budget itself is left out (spec 2, section 5). */
export function SumBudgetComponents({
  documentId,
  budgetId,
  value,
  onChange,
  error,
}: {
  documentId: string;
  budgetId: string | null;
  value: string[];
  onChange: (ids: string[]) => void;
  error?: FieldMessage;
}) {
  const hierarchy = useQuery(budgetHierarchyQuery(documentId));
  const options = useMemo(() => (hierarchy.data ?? []).filter((node) => node.id !== budgetId), [hierarchy.data, budgetId]);
  return (
    <fieldset className="fieldset" data-testid="budget-components">
      <legend>
        <FormattedMessage id="budgets.field.components" />
      </legend>
      {hierarchy.isPending ? <Spinner /> : null}
      {hierarchy.isSuccess && options.length === 0 ? (
        <p className="muted">
          <FormattedMessage id="budgets.field.componentsEmpty" />
        </p>
      ) : null}
      {hierarchy.isError ? <ErrorAlert error={hierarchy.error} title={<FormattedMessage id="budgets.loadFailed" />} testId="budget-components-error" /> : null}
      {hierarchy.isSuccess && options.length > 0 ? <BudgetComponentsGrid nodes={options} hierarchy={hierarchy.data} value={value} onChange={onChange} /> : null}
      <FieldError error={error} />
    </fieldset>
  );
}
