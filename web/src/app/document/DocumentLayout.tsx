import type { Document, Me } from '@eelarve/shared';
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, NavLink, Outlet, useLocation, useParams } from 'react-router';
import { errorCodeOf } from '../../api';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Spinner } from '../../components/Spinner';
import type { MessageKey } from '../../i18n/messages';
import { budgetListQuery } from '../../features/budgets/api/queries';
import { useCurrentUser } from '../session';
import { DocumentNotFound } from '../../features/documents/DocumentNotFound';
import { RememberedSchemeCrumb } from '../../features/report/RememberedSchemeCrumb';
import { ForbiddenPage } from '../errors/ForbiddenPage';
import { canSeeClassifiers, canSeeSchemes } from './access';
import { type DocumentContext, documentQuery, truncate, useDocument } from './current-document';
import '../../features/documents/documents.css';

interface DocumentTab {
  to: string;
  label: MessageKey;
  testId: string;
  enabled: boolean;
}

/** /document/{documentId}: breadcrumb, tabs and the tab (spec 2, Document tabs). */
export function DocumentLayout() {
  const { documentId = '', budgetId } = useParams();
  const me = useCurrentUser();
  const intl = useIntl();
  const location = useLocation();
  const document = useQuery(documentQuery(documentId));
  const budgets = useQuery({ ...budgetListQuery(documentId), enabled: budgetId !== undefined });

  if (document.isPending) return <Spinner />;
  if (document.isError) {
    const code = errorCodeOf(document.error);
    if (code === 'OBJECT_NOT_FOUND' || code === 'SCHEMA_VALIDATION_ERROR') return <DocumentNotFound />;
    return <ErrorAlert error={document.error} testId="document-load-error" />;
  }
  const current = document.data;
  const base = `/document/${current.id}`;
  const readable = current.permissions.read;
  const tabs: DocumentTab[] = [
    { to: `${base}/budgets`, label: 'documents.tab.budgets', testId: 'document-tab-budgets', enabled: readable },
    { to: `${base}/classifiers`, label: 'documents.tab.classifiers', testId: 'document-tab-classifiers', enabled: readable && canSeeClassifiers(me) },
    { to: `${base}/schemes`, label: 'documents.tab.schemes', testId: 'document-tab-schemes', enabled: readable && canSeeSchemes(me) },
    { to: `${base}/settings`, label: 'documents.tab.settings', testId: 'document-tab-settings', enabled: readable && current.permissions.update },
  ];
  const budget = budgetId ? budgets.data?.find((candidate) => candidate.id === budgetId) : undefined;
  const inBudgets = location.pathname.startsWith(`${base}/budget`);

  return (
    <div className="page document-page" data-testid="document-page" data-document-id={current.id}>
      <nav className="breadcrumb" aria-label={intl.formatMessage({ id: 'documents.breadcrumb' })} data-testid="breadcrumb">
        <Link to={`${base}/budgets`} data-testid="breadcrumb-document">
          {current.name}
        </Link>
        {budget ? (
          <>
            <span className="breadcrumb-separator" aria-hidden="true">
              /
            </span>
            <span data-testid="breadcrumb-budget" title={budget.name}>
              {truncate(budget.name)}
            </span>
            {location.pathname.endsWith('/report') ? <RememberedSchemeCrumb documentId={current.id} budgetId={budget.id} /> : null}
          </>
        ) : null}
      </nav>
      <h1 className="page-title" data-testid="document-title">
        {current.name}
      </h1>
      <nav className="tabs" aria-label={intl.formatMessage({ id: 'documents.tabs' })}>
        {tabs.map((tab) =>
          tab.enabled ? (
            <NavLink
              key={tab.to}
              to={tab.to}
              replace
              className={({ isActive }) => (isActive || (tab.testId === 'document-tab-budgets' && inBudgets) ? 'tab active' : 'tab')}
              data-testid={tab.testId}
            >
              <FormattedMessage id={tab.label} />
            </NavLink>
          ) : (
            <span key={tab.to} className="tab tab-disabled" aria-disabled="true" data-testid={tab.testId}>
              <FormattedMessage id={tab.label} />
            </span>
          ),
        )}
      </nav>
      <div className="tab-panel">
        <Outlet context={{ document: current } satisfies DocumentContext} />
      </div>
    </div>
  );
}

/** A tab the user may not open shows the forbidden page (the tab link is disabled as well). */
export function RequireDocumentTab({ allowed, children }: { allowed: (me: Me, document: Document) => boolean; children: ReactNode }) {
  const me = useCurrentUser();
  const document = useDocument();
  if (!document.permissions.read || !allowed(me, document)) return <ForbiddenPage />;
  return children;
}
