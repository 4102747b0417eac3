import { useQuery } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { settingsLock } from '../../components/status-lock/status-lock';
import { statusLockReason } from '../../components/status-lock/StatusLock';
import { Spinner } from '../../components/Spinner';
import { DEFAULT_DATE_FORMAT, formatDate } from '../../i18n/format';
import { useCurrentUser } from '../../app/session';
import { useDocument } from '../../app/document/current-document';
import { type BudgetView, budgetLink, budgetListQuery } from './api/queries';
import { ApprovalPanel } from './approval/ApprovalPanel';
import { useBudget } from './BudgetLayout';
import { BudgetTypeIcon } from './BudgetTypeIcon';

/** The records feature's import report of a monitoring budget (spec 3, section 2), given by the app's routes. */
export type ImportReportComponent = ComponentType<{ documentId: string; budgetId: string }>;
/** The report feature's screen (spec 3, section 2), given by the app's routes. */
export type ReportComponent = ComponentType<{ budgetId: string; budgetName: string }>;

/**
 * /document/{documentId}/budget/{budgetId}/report (spec 2, Budget tabs; spec 3, section 2): the
 * budget's report, then what the budget is: type, description, tags, and per type its components,
 * its import address and import report, or its sub-budgets; the approval.
 */
export function BudgetReportPage({ importReport, report: Report }: { importReport?: ImportReportComponent; report?: ReportComponent } = {}) {
  const budget = useBudget();
  return (
    <>
      {Report ? <Report budgetId={budget.id} budgetName={budget.name} /> : null}
      <BudgetOverview importReport={importReport} />
    </>
  );
}

function BudgetOverview({ importReport }: { importReport?: ImportReportComponent }) {
  const document = useDocument();
  const budget = useBudget();
  const base = `/document/${document.id}/budget/${budget.id}`;

  return (
    <section className="budget-overview card" data-testid="budget-overview" data-budget-type={budget.type}>
      <header className="budget-overview-header">
        <BudgetTypeIcon type={budget.type} />
        <div className="budget-overview-heading">
          <h2 className="section-title" data-testid="budget-overview-name">
            {budget.name}
          </h2>
          <span className="muted" data-testid="budget-overview-type">
            <FormattedMessage id={`budgets.type.${budget.type}`} />
          </span>
        </div>
        {budget.permissions.update ? <EditSettings budget={budget} to={`${base}/edit`} /> : null}
      </header>
      <dl className="budget-facts">
        <dt>
          <FormattedMessage id="budgets.overview.description" />
        </dt>
        <dd data-testid="budget-overview-description">
          {budget.description ? (
            <span className="budget-description">{budget.description}</span>
          ) : (
            <span className="muted">
              <FormattedMessage id="budgets.overview.noDescription" />
            </span>
          )}
        </dd>
        <dt>
          <FormattedMessage id="budgets.overview.tags" />
        </dt>
        <dd data-testid="budget-overview-tags">
          {budget.tags.length > 0 ? (
            <span className="budget-overview-tags">
              {budget.tags.map((tag) => (
                <span key={tag} className="tag" data-testid="budget-overview-tag">
                  {tag}
                </span>
              ))}
            </span>
          ) : (
            <span className="muted">
              <FormattedMessage id="budgets.overview.noTags" />
            </span>
          )}
        </dd>
        {budget.type === 'SUM_BUDGET' ? <SumBudgetFacts budget={budget} /> : null}
        {budget.type === 'MONITORING' ? <MonitoringFacts budget={budget} importReport={importReport} /> : null}
        {budget.type === 'COMMON' ? (
          <>
            <dt>
              <FormattedMessage id="budgets.overview.subBudgets" />
            </dt>
            <dd>
              <Link to={`${base}/sub-budgets`} className="grid-link" data-testid="budget-overview-sub-budgets">
                <FormattedMessage id="budgets.overview.openSubBudgets" />
              </Link>
              <div className="muted">
                <FormattedMessage id="budgets.overview.subBudgetsHint" />
              </div>
            </dd>
          </>
        ) : null}
      </dl>
      <ApprovalPanel budget={budget} />
    </section>
  );
}

/**
 * The way to the settings form; greyed out with the locking status as its tooltip where a status
 * locks the settings for someone who may not change the status either (spec 2, section 6).
 */
function EditSettings({ budget, to }: { budget: BudgetView; to: string }) {
  const me = useCurrentUser();
  const intl = useIntl();
  const document = useDocument();
  if (settingsLock(me, budget.permissions).statusEditable) {
    return (
      <Link to={to} className="button" data-testid="budget-overview-edit">
        <FormattedMessage id="budgets.overview.edit" />
      </Link>
    );
  }
  const sources = { budget: budget.resourceStatusId, document: document.resourceStatusId };
  return (
    <span title={statusLockReason(intl, me, budget.permissions, sources, ['METADATA_WRITE_DISABLED'])} data-testid="budget-overview-edit-tooltip">
      <button type="button" className="button" disabled data-testid="budget-overview-edit">
        <FormattedMessage id="budgets.overview.edit" />
      </button>
    </span>
  );
}

/** A sum budget's components, each a link to its own page (or plain text when it may not be read). */
function SumBudgetFacts({ budget }: { budget: BudgetView }) {
  const document = useDocument();
  const budgets = useQuery(budgetListQuery(document.id));
  const byId = new Map((budgets.data ?? []).map((candidate) => [candidate.id, candidate]));
  return (
    <>
      <dt>
        <FormattedMessage id="budgets.overview.components" />
      </dt>
      <dd>
        {budgets.isPending ? <Spinner /> : null}
        {budgets.isError ? (
          <ErrorAlert error={budgets.error} title={<FormattedMessage id="budgets.loadFailed" />} testId="budget-overview-components-error" />
        ) : null}
        {budgets.isSuccess ? (
          <ul className="budget-component-links" data-testid="budget-overview-components">
            {budget.sumBudgetComponentIds.map((id) => {
              const component = byId.get(id);
              return (
                <li key={id} data-testid="budget-overview-component" data-budget-id={id}>
                  {component ? <BudgetTypeIcon type={component.type} /> : null}
                  {component?.permissions.read ? (
                    <Link to={budgetLink(document.id, component)} className="grid-link" data-testid="budget-overview-component-link">
                      {component.name}
                    </Link>
                  ) : component ? (
                    <span>{component.name}</span>
                  ) : (
                    <span className="muted">
                      <FormattedMessage id="budgets.overview.componentUnavailable" />
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        ) : null}
      </dd>
    </>
  );
}

/** A monitoring budget's import address, when its automatic sync (the system job) last ran, and its latest import's report. */
function MonitoringFacts({ budget, importReport: ImportReport }: { budget: BudgetView; importReport?: ImportReportComponent }) {
  const me = useCurrentUser();
  const document = useDocument();
  const dateTimeFormat = `${me.organizationLocaleSettings?.dateFormat ?? DEFAULT_DATE_FORMAT} HH:mm`;
  const lastExecution = budget.result.lastExecutionTime;
  return (
    <>
      <dt>
        <FormattedMessage id="budgets.overview.apiUrl" />
      </dt>
      <dd>
        <code className="api-key" data-testid="budget-overview-api-url">
          {budget.apiUrl ?? ''}
        </code>
        <div className="muted">
          <FormattedMessage id="budgets.overview.apiUrlHint" />
        </div>
      </dd>
      <dt>
        <FormattedMessage id="budgets.overview.lastExecution" />
      </dt>
      <dd data-testid="budget-overview-last-execution">
        {lastExecution ? (
          <time dateTime={lastExecution}>{formatDate(lastExecution, dateTimeFormat)}</time>
        ) : (
          <span className="muted">
            <FormattedMessage id="budgets.overview.neverExecuted" />
          </span>
        )}
      </dd>
      {ImportReport ? <ImportReport documentId={document.id} budgetId={budget.id} /> : null}
    </>
  );
}
