import { FormattedMessage } from 'react-intl';
import { Outlet } from 'react-router';
import { Alert } from '../../components/Alert';
import { type Tab, TabNav } from '../../components/TabNav';
import { useCurrentUser } from '../../app/session';
import { canEditUsers } from './access';
import './users.css';

/**
 * The users area (spec 1, section 2): users (the default tab) and occupations. The permissions
 * and budget-permissions tabs come with a later issue. Switching tabs replaces the history entry.
 */
const TABS: Tab[] = [
  { to: '/users', label: 'usersArea.tab.users', testId: 'users-tab-users', end: true },
  { to: '/users/occupations', label: 'usersArea.tab.occupations', testId: 'users-tab-occupations', end: false },
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
