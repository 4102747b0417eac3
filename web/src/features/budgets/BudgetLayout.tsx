import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Navigate, Outlet, useOutletContext, useParams } from 'react-router';
import { errorCodeOf } from '../../api';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Spinner } from '../../components/Spinner';
import { type Tab, TabNav } from '../../components/TabNav';
import { type DocumentContext, useDocument } from '../../app/document/current-document';
import { ForbiddenPage } from '../../app/errors/ForbiddenPage';
import { NotFoundPage } from '../../app/errors/NotFoundPage';
import { Alert } from '../../components/Alert';
import { LOCKING_RULES, lockingStatus, restricts, rulesInForce, type StatusPermissions } from '../../components/status-lock/status-lock';
import { StatusLockBadge } from '../../components/status-lock/StatusLock';
import { resourceStatusName } from '../../components/ResourceStatusSelect';
import { useCurrentUser } from '../../app/session';
import { type BudgetView, budgetListQuery, budgetQuery } from './api/queries';
import './budgets.css';

/** What the budget layout hands to its tabs: the document (as the document tabs get it) and the budget. */
export interface BudgetContext extends DocumentContext {
  budget: BudgetView;
}

/** The budget the layout loaded, for its tabs. */
export function useBudget(): BudgetView {
  return useOutletContext<BudgetContext>().budget;
}

/**
 * The tabs of one budget (spec 2, Budget tabs): report, sub-budgets (common budgets only), settings;
 * all disabled where its read is disabled (spec 2, section 2: by a grant missing or a status).
 */
export function budgetTabs(documentId: string, budget: { id: string; type: BudgetView['type']; permissions: StatusPermissions }): Tab[] {
  const base = `/document/${documentId}/budget/${budget.id}`;
  const unreadable = !budget.permissions.read || restricts(budget.permissions, 'READ_DISABLED');
  return [
    { to: `${base}/report`, label: 'budgets.tab.report', testId: 'budget-tab-report', disabled: unreadable },
    {
      to: `${base}/sub-budgets`,
      label: 'budgets.tab.subBudgets',
      testId: 'budget-tab-sub-budgets',
      disabled: budget.type !== 'COMMON' || unreadable,
    },
    { to: `${base}/edit`, label: 'budgets.tab.settings', testId: 'budget-tab-settings', disabled: unreadable || !budget.permissions.update },
  ];
}

/** /document/{documentId}/budget/{budgetId}/*: the budget's tabs and the tab. */
export function BudgetLayout() {
  const me = useCurrentUser();
  const document = useDocument();
  const { budgetId = '' } = useParams();
  const budget = useQuery(budgetQuery(budgetId));

  if (budget.isPending) return <Spinner />;
  if (budget.isError) {
    const code = errorCodeOf(budget.error);
    if (code === 'OBJECT_NOT_FOUND' || code === 'SCHEMA_VALIDATION_ERROR') return <NotFoundPage />;
    // A status hides the budget (READ_DISABLED): the server refuses to open it.
    if (code === 'ACTION_DISALLOWED_DUE_TO_STATUS') return <HiddenBudget budgetId={budgetId} />;
    return <ErrorAlert error={budget.error} title={<FormattedMessage id="budgets.loadFailed" />} testId="budget-load-error" />;
  }
  // A budget of another document is not found under this one.
  if (budget.data.documentId !== document.id) return <NotFoundPage />;
  if (!budget.data.permissions.read) return <ForbiddenPage />;

  return (
    <div className="budget-page" data-testid="budget-page" data-budget-id={budget.data.id} data-budget-type={budget.data.type}>
      {rulesInForce(budget.data.permissions, LOCKING_RULES).length > 0 ? (
        <div className="status-lock-row">
          <StatusLockBadge
            me={me}
            permissions={budget.data.permissions}
            sources={{ budget: budget.data.resourceStatusId, document: document.resourceStatusId }}
            testId="budget-lock-badge"
          />
        </div>
      ) : null}
      <TabNav labelId="budgets.tabs" tabs={budgetTabs(document.id, budget.data)} />
      <Outlet context={{ document, budget: budget.data } satisfies BudgetContext} />
    </div>
  );
}

/**
 * A budget that a status hides: its tabs disabled, and which status hides it (from the budget
 * list, which still names it), or the server's translated refusal when the list does not say.
 * Nothing is said until the list has answered, so the refusal does not flash before the status.
 */
function HiddenBudget({ budgetId }: { budgetId: string }) {
  const me = useCurrentUser();
  const intl = useIntl();
  const document = useDocument();
  const list = useQuery(budgetListQuery(document.id));
  const listed = list.data?.find((candidate) => candidate.id === budgetId);
  const permissions: StatusPermissions = listed?.permissions ?? { read: false, update: false, restrictions: ['READ_DISABLED'] };
  const locking = lockingStatus(me, { budget: listed?.resourceStatusId ?? null, document: document.resourceStatusId }, ['READ_DISABLED']);
  const status = locking ? resourceStatusName(locking.status, intl.locale, me.organizationLocaleSettings?.language) : '';
  const text = !locking
    ? 'error.ACTION_DISALLOWED_DUE_TO_STATUS'
    : locking.source === 'document'
      ? 'statusLock.hidden.text.document'
      : 'statusLock.hidden.text';
  return (
    <div className="budget-page" data-testid="budget-page" data-budget-id={budgetId} data-hidden-by-status="true">
      <TabNav labelId="budgets.tabs" tabs={budgetTabs(document.id, { id: budgetId, type: listed?.type ?? 'COMMON', permissions })} />
      {!list.isPending && (
        <Alert kind="warning" title={<FormattedMessage id="statusLock.hidden.title" />} testId="budget-hidden">
          <span data-status-id={locking?.status.id}>
            <FormattedMessage id={text} values={{ status }} />
          </span>
        </Alert>
      )}
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
