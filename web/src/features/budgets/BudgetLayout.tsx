import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Navigate, Outlet, useOutletContext, useParams } from 'react-router';
import { errorCodeOf } from '../../api';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Spinner } from '../../components/Spinner';
import { type Tab, TabNav } from '../../components/TabNav';
import { type DocumentContext, useDocument } from '../../app/document/current-document';
import { ForbiddenPage } from '../../app/errors/ForbiddenPage';
import { NotFoundPage } from '../../app/errors/NotFoundPage';
import { type BudgetView, budgetQuery } from './api/queries';
import './budgets.css';

/** What the budget layout hands to its tabs: the document (as the document tabs get it) and the budget. */
export interface BudgetContext extends DocumentContext {
  budget: BudgetView;
}

/** The budget the layout loaded, for its tabs. */
export function useBudget(): BudgetView {
  return useOutletContext<BudgetContext>().budget;
}

/** The tabs of one budget (spec 2, Budget tabs): report, sub-budgets (common budgets only), settings. */
export function budgetTabs(documentId: string, budget: BudgetView): Tab[] {
  const base = `/document/${documentId}/budget/${budget.id}`;
  return [
    { to: `${base}/report`, label: 'budgets.tab.report', testId: 'budget-tab-report', disabled: !budget.permissions.read },
    {
      to: `${base}/sub-budgets`,
      label: 'budgets.tab.subBudgets',
      testId: 'budget-tab-sub-budgets',
      disabled: budget.type !== 'COMMON' || !budget.permissions.read,
    },
    { to: `${base}/edit`, label: 'budgets.tab.settings', testId: 'budget-tab-settings', disabled: !budget.permissions.update },
  ];
}

/** /document/{documentId}/budget/{budgetId}/*: the budget's tabs and the tab. */
export function BudgetLayout() {
  const document = useDocument();
  const { budgetId = '' } = useParams();
  const budget = useQuery(budgetQuery(budgetId));

  if (budget.isPending) return <Spinner />;
  if (budget.isError) {
    const code = errorCodeOf(budget.error);
    if (code === 'OBJECT_NOT_FOUND' || code === 'SCHEMA_VALIDATION_ERROR') return <NotFoundPage />;
    return <ErrorAlert error={budget.error} title={<FormattedMessage id="budgets.loadFailed" />} testId="budget-load-error" />;
  }
  // A budget of another document is not found under this one.
  if (budget.data.documentId !== document.id) return <NotFoundPage />;
  if (!budget.data.permissions.read) return <ForbiddenPage />;

  return (
    <div className="budget-page" data-testid="budget-page" data-budget-id={budget.data.id} data-budget-type={budget.data.type}>
      <TabNav labelId="budgets.tabs" tabs={budgetTabs(document.id, budget.data)} />
      <Outlet context={{ document, budget: budget.data } satisfies BudgetContext} />
    </div>
  );
}

/**
 * The sub-budgets tab exists for common budgets only: for the others it is replaced by the
 * report (spec 2, Budget tabs).
 */
export function RequireCommonBudget({ children }: { children: ReactNode }) {
  const document = useDocument();
  const budget = useBudget();
  if (budget.type !== 'COMMON') return <Navigate to={`/document/${document.id}/budget/${budget.id}/report`} replace />;
  return children;
}
