import { ADMIN_ROUTE } from '@eelarve/shared';
import { FormattedMessage, useIntl } from 'react-intl';
import { NavLink, Outlet } from 'react-router';
import type { MessageKey } from '../../i18n/messages';

/**
 * The administration area (spec 1, section 2). Only the organisations tab exists so far; system
 * jobs, monitoring and notifications come with later issues. Switching tabs replaces the history entry.
 */
const TABS: Array<{ path: string; label: MessageKey }> = [{ path: 'organizations', label: 'admin.tab.organizations' }];

export function AdminLayout() {
  const intl = useIntl();
  return (
    <div className="page" data-testid="admin-page">
      <h1 className="page-title">
        <FormattedMessage id="admin.title" />
      </h1>
      <nav className="tabs" aria-label={intl.formatMessage({ id: 'admin.tabs' })}>
        {TABS.map((tab) => (
          <NavLink
            key={tab.path}
            to={`${ADMIN_ROUTE}/${tab.path}`}
            replace
            className={({ isActive }) => (isActive ? 'tab active' : 'tab')}
            data-testid={`admin-tab-${tab.path}`}
          >
            <FormattedMessage id={tab.label} />
          </NavLink>
        ))}
      </nav>
      <div className="tab-panel">
        <Outlet />
      </div>
    </div>
  );
}
