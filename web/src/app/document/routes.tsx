import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { Navigate } from 'react-router';
import { BudgetCreatePage, BudgetEditPage } from '../../features/budgets/BudgetFormPage';
import { BudgetLayout, RequireCommonBudget } from '../../features/budgets/BudgetLayout';
import { BudgetReportPage } from '../../features/budgets/BudgetReportPage';
import { BudgetsTab } from '../../features/budgets/BudgetsTab';
import { ClassifiersTab } from '../../features/classifiers/ClassifiersTab';
import { DocumentCreatePage, DocumentSettingsTab } from '../../features/documents/DocumentFormPage';
import { NotFoundPage } from '../errors/NotFoundPage';
import { BudgetSubBudgetsView } from '../../features/schemes/BudgetSubBudgetsView';
import { canViewRecords } from '../../features/records/access';
import { BudgetRecordActions } from '../../features/records/import/BudgetRecordActions';
import { MonitoringImportReport } from '../../features/records/import/MonitoringImportReport';
import { RecordsPage } from '../../features/records/RecordsPage';
import { prefetchReportOpening } from '../../features/report/report-prefetch';
import { ReportScreen } from '../../features/report/ReportScreen';
import { RequireAccess } from '../guards';
import { SchemesTab } from '../../features/schemes/SchemesTab';
import { canSeeClassifiers, canSeeSchemes } from './access';
import { DocumentLayout, RequireDocumentTab } from './DocumentLayout';

/**
 * Spec 2, section 2: the document routes (inside the signed-in shell). Composed here, in the app,
 * because they bring several features together under the current document.
 */
export const documentRoutes = (queryClient: QueryClient): RouteObject[] => [
  { path: '/document/create', element: <DocumentCreatePage /> },
  {
    path: '/document/:documentId',
    element: <DocumentLayout />,
    children: [
      { index: true, element: <Navigate to="budgets" replace /> },
      { path: 'budgets', element: <BudgetsTab /> },
      { path: 'budgets/create', element: <BudgetCreatePage /> },
      {
        // Spec 2, Budget tabs: report, sub-budgets (common budgets only) and settings (the edit form).
        path: 'budget/:budgetId',
        element: <BudgetLayout />,
        children: [
          { index: true, element: <Navigate to="report" replace /> },
          {
            path: 'report',
            element: <BudgetReportPage importReport={MonitoringImportReport} report={ReportScreen} />,
            // The report's reads start at navigation (report-prefetch.ts); the loader does not wait for them.
            loader: ({ params }) => {
              prefetchReportOpening(queryClient, params.documentId ?? '', params.budgetId ?? '');
              return null;
            },
            // Only a change of budget asks again (the screen's own changes are its queries').
            shouldRevalidate: ({ currentParams, nextParams }) => currentParams.budgetId !== nextParams.budgetId,
          },
          {
            path: 'sub-budgets/:schemeId?',
            element: (
              <RequireCommonBudget>
                <BudgetSubBudgetsView recordActions={BudgetRecordActions} />
              </RequireCommonBudget>
            ),
          },
          {
            // Spec 3, section 2: one sub-budget's records, with the DATA_VIEW privilege.
            path: 'sub-budgets/:schemeId/records/:subBudgetId',
            element: (
              <RequireAccess rule={canViewRecords}>
                <RequireCommonBudget>
                  <RecordsPage />
                </RequireCommonBudget>
              </RequireAccess>
            ),
          },
          { path: 'edit', element: <BudgetEditPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      {
        path: 'classifiers/:classifierId?',
        element: (
          <RequireDocumentTab allowed={(me) => canSeeClassifiers(me)}>
            <ClassifiersTab />
          </RequireDocumentTab>
        ),
      },
      {
        path: 'schemes',
        element: (
          <RequireDocumentTab allowed={(me) => canSeeSchemes(me)}>
            <SchemesTab />
          </RequireDocumentTab>
        ),
      },
      {
        path: 'settings',
        element: (
          <RequireDocumentTab allowed={(_me, document) => document.permissions.update}>
            <DocumentSettingsTab />
          </RequireDocumentTab>
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
