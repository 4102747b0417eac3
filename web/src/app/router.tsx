import { ADMIN_ROUTE } from '@eelarve/shared';
import { createBrowserRouter, Navigate } from 'react-router';
import { LoginLayout } from '../features/auth/LoginLayout';
import { LoginPage } from '../features/auth/LoginPage';
import { SelectOccupationPage } from '../features/auth/SelectOccupationPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { NotFoundPage } from '../features/errors/NotFoundPage';
import { AdminLayout } from '../features/organizations/AdminLayout';
import { OrganizationsTab } from '../features/organizations/OrganizationsTab';
import { AppShell } from '../features/shell/AppShell';
import { type AccessRule, access } from './access';
import { AuthGate, PublicOnly, RequireAccess, RequireOccupation, RequireUser } from './guards';
import { RouteError } from './RouteError';

/** An area whose screens come with a later issue: the privilege gate already applies. */
function Gated({ rule }: { rule: AccessRule }) {
  return (
    <RequireAccess rule={rule}>
      <NotFoundPage />
    </RequireAccess>
  );
}

/**
 * Routes of spec 1, section 2. The roles, users and statuses areas come with later issues; their
 * privilege gates are already in place so that the menu and the routes agree.
 */
export function createRouter() {
  return createBrowserRouter([
    {
      element: <AuthGate />,
      errorElement: <RouteError />,
      children: [
        {
          element: <LoginLayout />,
          children: [
            { element: <PublicOnly />, children: [{ path: '/login', element: <LoginPage /> }] },
            { element: <RequireUser />, children: [{ path: '/select-occupation', element: <SelectOccupationPage /> }] },
          ],
        },
        {
          element: <RequireOccupation />,
          children: [
            {
              element: <AppShell />,
              children: [
                {
                  // A crash inside a page keeps the header and menu around the error page.
                  errorElement: <RouteError />,
                  children: [
                    { index: true, element: <DashboardPage /> },
                    { path: '/settings/*', element: <Gated rule={access.roles} /> },
                    { path: '/users/*', element: <Gated rule={access.users} /> },
                    { path: '/resource-statuses/*', element: <Gated rule={access.statuses} /> },
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
