import { FormattedMessage, useIntl } from 'react-intl';
import { NavLink, Outlet } from 'react-router';
import { Alert } from '../../components/Alert';
import type { MessageKey } from '../../i18n/messages';
import { useCurrentUser } from '../auth/hooks';
import { canEditUsers } from './access';
import './users.css';

/**
 * The users area (spec 1, section 2): users (the default tab) and occupations. The permissions
 * and budget-permissions tabs come with a later issue. Switching tabs replaces the history entry.
 */
const TABS: Array<{ to: string; label: MessageKey; testId: string; end: boolean }> = [
  { to: '/users', label: 'usersArea.tab.users', testId: 'users-tab-users', end: true },
  { to: '/users/occupations', label: 'usersArea.tab.occupations', testId: 'users-tab-occupations', end: false },
];

export function UsersLayout() {
  const intl = useIntl();
  const me = useCurrentUser();
  return (
    <div className="page" data-testid="users-page">
      <h1 className="page-title">
        <FormattedMessage id="usersArea.title" />
      </h1>
      <nav className="tabs" aria-label={intl.formatMessage({ id: 'usersArea.tabs' })}>
        {TABS.map((tab) => (
          <NavLink
            key={tab.to}
            to={tab.to}
            end={tab.end}
            replace
            className={({ isActive }) => (isActive ? 'tab active' : 'tab')}
            data-testid={tab.testId}
          >
            <FormattedMessage id={tab.label} />
          </NavLink>
        ))}
      </nav>
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
