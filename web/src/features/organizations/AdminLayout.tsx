import { ADMIN_ROUTE } from '@eelarve/shared';
import { FormattedMessage } from 'react-intl';
import { Outlet } from 'react-router';
import { type Tab, TabNav } from '../../components/TabNav';

/**
 * The administration area (spec 1, section 2). Only the organisations tab exists so far; system
 * jobs, monitoring and notifications come with later issues. Switching tabs replaces the history entry.
 */
const TABS: Tab[] = [{ to: `${ADMIN_ROUTE}/organizations`, label: 'admin.tab.organizations', testId: 'admin-tab-organizations' }];

export function AdminLayout() {
  return (
    <div className="page" data-testid="admin-page">
      <h1 className="page-title">
        <FormattedMessage id="admin.title" />
      </h1>
      <TabNav labelId="admin.tabs" tabs={TABS} />
      <div className="tab-panel">
        <Outlet />
      </div>
    </div>
  );
}
