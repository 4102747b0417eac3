import { BudgetSubBudgetsView } from '../schemes/BudgetSubBudgetsView';

/** /document/{documentId}/budget/{budgetId}/sub-budgets/{schemeId?}: a common budget's sub-budgets (spec 2). */
export function BudgetSubBudgetsTab() {
  return <BudgetSubBudgetsView />;
}
