import type { RouteObject } from 'react-router';
import { BudgetCreatePage, BudgetEditPage } from '../budgets/BudgetFormPage';
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
      { path: 'budget/:budgetId/edit', element: <BudgetEditPage /> },
      { path: 'budget/:budgetId/sub-budgets/:schemeId?', element: <BudgetSubBudgetsTab /> },
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
