import type { BudgetHierarchyNode } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { FormattedMessage } from 'react-intl';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { FieldError, type FieldMessage } from '../../../components/form';
import { Spinner } from '../../../components/Spinner';
import { budgetHierarchyQuery } from '../api/queries';
import { BudgetComponentsGrid } from '../BudgetComponentsGrid';
import { BudgetTypeIcon } from '../BudgetTypeIcon';

/**
 * The budgets a sum budget adds up, chosen from the document's hierarchy; the edited budget itself
 * is left out (spec 2, section 5). Where a status locks the settings (`disabled`) the chosen ones
 * are only listed.
 */
export function SumBudgetComponents({
  documentId,
  budgetId,
  value,
  onChange,
  disabled,
  error,
}: {
  documentId: string;
  budgetId: string | null;
  value: string[];
  onChange: (ids: string[]) => void;
  disabled: boolean;
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
      {hierarchy.isSuccess && disabled ? <ChosenComponents hierarchy={hierarchy.data} value={value} /> : null}
      {hierarchy.isSuccess && !disabled && options.length === 0 ? (
        <p className="muted">
          <FormattedMessage id="budgets.field.componentsEmpty" />
        </p>
      ) : null}
      {hierarchy.isError ? <ErrorAlert error={hierarchy.error} title={<FormattedMessage id="budgets.loadFailed" />} testId="budget-components-error" /> : null}
      {hierarchy.isSuccess && !disabled && options.length > 0 ? (
        <BudgetComponentsGrid nodes={options} hierarchy={hierarchy.data} value={value} onChange={onChange} />
      ) : null}
      <FieldError error={error} />
    </fieldset>
  );
}

/** The chosen components by name, in the document's order (the read-only form). */
function ChosenComponents({ hierarchy, value }: { hierarchy: readonly BudgetHierarchyNode[]; value: readonly string[] }) {
  const chosen = hierarchy.filter((node) => value.includes(node.id));
  return (
    <ul className="budget-component-links" data-testid="budget-components-chosen">
      {chosen.map((node) => (
        <li key={node.id} data-testid="budget-component-chosen" data-budget-id={node.id}>
          <BudgetTypeIcon type={node.type} />
          <span>{node.name}</span>
        </li>
      ))}
    </ul>
  );
}
