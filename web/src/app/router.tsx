import { ADMIN_ROUTE } from '@eelarve/shared';
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Navigate } from 'react-router';
import { AccountPage } from '../features/account/AccountPage';
import { ConfirmEmailPage } from '../features/account/ConfirmEmailPage';
import { LoginLayout } from '../features/auth/LoginLayout';
import { LoginPage } from '../features/auth/LoginPage';
import { EnterMfaCodePage, SetupMfaPage } from '../features/auth/MfaPages';
import { ConfirmRegistrationPage, ResendConfirmationPage, ResetPasswordPage, UpdatePasswordPage } from '../features/auth/PasswordPages';
import { SelectOccupationPage } from '../features/auth/SelectOccupationPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { documentRoutes } from './document/routes';
import { NotFoundPage } from './errors/NotFoundPage';
import { AdminLayout } from '../features/organizations/AdminLayout';
import { OrganizationsTab } from '../features/organizations/OrganizationsTab';
import { RolesPage } from '../features/roles/RolesPage';
import { ResourceStatusesPage } from '../features/resource-statuses/ResourceStatusesPage';
import { BudgetPermissionsTab } from '../features/permissions/BudgetPermissionsTab';
import { PermissionsTab } from '../features/permissions/PermissionsTab';
import { OccupationsTab } from '../features/users/OccupationsTab';
import { UsersLayout } from '../features/users/UsersLayout';
import { UsersTab } from '../features/users/UsersTab';
import { access } from './access';
import { AuthGate, PublicOnly, RequireAccess, RequireOccupation, RequireUser } from './guards';
import { RouteError } from './RouteError';
import { SignedInFrame } from './SignedInFrame';

/** Routes of spec 1, section 2; each area behind the privilege gate its menu entry uses. */
export function createRouter(queryClient: QueryClient) {
  return createBrowserRouter([
    {
      element: <AuthGate />,
      errorElement: <RouteError />,
      children: [
        {
          element: <LoginLayout />,
          children: [
            { element: <PublicOnly />, children: [{ path: '/login', element: <LoginPage /> }] },
            // Password and registration links work with or without a session (no redirect is stored for them).
            { path: '/reset-password', element: <ResetPasswordPage /> },
            { path: '/resend-confirmation', element: <ResendConfirmationPage /> },
            { path: '/update-password', element: <UpdatePasswordPage /> },
            { path: '/confirm', element: <ConfirmRegistrationPage /> },
            // The link mailed to a new e-mail address (the user's own change in account settings).
            { path: '/confirm-email', element: <ConfirmEmailPage /> },
            {
              element: <RequireUser />,
              children: [
                { path: '/select-occupation', element: <SelectOccupationPage /> },
                { path: '/enter-mfa-code', element: <EnterMfaCodePage /> },
                { path: '/setup-mfa', element: <SetupMfaPage /> },
              ],
            },
          ],
        },
        {
          element: <RequireOccupation />,
          children: [
            {
              element: <SignedInFrame />,
              children: [
                {
                  // A crash inside a page keeps the header and menu around the error page.
                  errorElement: <RouteError />,
                  children: [
                    { index: true, element: <DashboardPage /> },
                    // Spec 2, section 2: documents and their budgets, classifiers, schemes and settings.
                    ...documentRoutes(queryClient),
                    { path: '/account', element: <AccountPage /> },
                    {
                      path: '/settings',
                      element: <RequireAccess rule={access.roles} />,
                      children: [
                        { index: true, element: <RolesPage /> },
                        { path: '*', element: <NotFoundPage /> },
                      ],
                    },
                    {
                      path: '/users',
                      element: (
                        <RequireAccess rule={access.users}>
                          <UsersLayout />
                        </RequireAccess>
                      ),
                      children: [
                        { index: true, element: <UsersTab /> },
                        { path: 'occupations', element: <OccupationsTab /> },
                        { path: 'permissions', element: <PermissionsTab /> },
                        { path: 'budget-permissions', element: <BudgetPermissionsTab /> },
                        { path: '*', element: <NotFoundPage /> },
                      ],
                    },
                    {
                      path: '/resource-statuses/*',
                      element: (
                        <RequireAccess rule={access.statuses}>
                          <ResourceStatusesPage />
                        </RequireAccess>
                      ),
                    },
                    {
                      path: ADMIN_ROUTE,
                      element: (
                        <RequireAccess rule={access.administration}>
                          <AdminLayout />
                        </RequireAccess>
                      ),
                      children: [
                        { index: true, element: <Navigate to={`${ADMIN_ROUTE}/organizations`} replace /> },
                        { path: 'organizations', element: <OrganizationsTab /> },
                        { path: '*', element: <NotFoundPage /> },
                      ],
                    },
                    { path: '*', element: <NotFoundPage /> },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  ]);
}
