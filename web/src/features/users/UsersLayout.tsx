import { FormattedMessage } from 'react-intl';
import { Outlet } from 'react-router';
import { Alert } from '../../components/Alert';
import { type Tab, TabNav } from '../../components/TabNav';
import { useCurrentUser } from '../../app/session';
import { canEditUsers } from './access';
import './users.css';

/**
 * The users area (spec 1, section 2): users (the default tab), occupations, permissions and
 * budget permissions. Switching tabs replaces the history entry.
 */
const TABS: Tab[] = [
  { to: '/users', label: 'usersArea.tab.users', testId: 'users-tab-users', end: true },
  { to: '/users/occupations', label: 'usersArea.tab.occupations', testId: 'users-tab-occupations', end: false },
  { to: '/users/permissions', label: 'permissions.tab.permissions', testId: 'users-tab-permissions', end: false },
  { to: '/users/budget-permissions', label: 'permissions.tab.budgetPermissions', testId: 'users-tab-budget-permissions', end: false },
];

export function UsersLayout() {
  const me = useCurrentUser();
  return (
    <div className="page" data-testid="users-page">
      <h1 className="page-title">
        <FormattedMessage id="usersArea.title" />
      </h1>
      <TabNav labelId="usersArea.tabs" tabs={TABS} />
      {canEditUsers(me) ? null : (
        <Alert kind="info" testId="users-read-only">
          <FormattedMessage id="usersArea.readOnly" />
        </Alert>
      )}
      <div className="tab-panel">
        <Outlet />
      </div>
    </div>
  );
}
