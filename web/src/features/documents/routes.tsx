import type { RouteObject } from 'react-router';
import { BudgetCreatePage, BudgetEditPage } from '../budgets/BudgetFormPage';
import { BudgetLayout, RequireCommonBudget } from '../budgets/BudgetLayout';
import { BudgetReportPage } from '../budgets/BudgetReportPage';
import { BudgetSubBudgetsTab } from '../budgets/BudgetSubBudgetsTab';
import { BudgetsTab } from '../budgets/BudgetsTab';
import { ClassifiersTab } from '../classifiers/ClassifiersTab';
import { NotFoundPage } from '../errors/NotFoundPage';
import { SchemesTab } from '../schemes/SchemesTab';
import { DocumentCreatePage, DocumentSettingsTab } from './DocumentFormPage';
import { DocumentLayout, RequireDocumentTab } from './DocumentLayout';
import { canSeeClassifiers, canSeeSchemes } from './access';
import { Navigate } from 'react-router';

/** Spec 2, section 2: the document routes (inside the signed-in shell). */
export const documentRoutes: RouteObject[] = [
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
          { path: 'report', element: <BudgetReportPage /> },
          {
            path: 'sub-budgets/:schemeId?',
            element: (
              <RequireCommonBudget>
                <BudgetSubBudgetsTab />
              </RequireCommonBudget>
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
