import { PRODUCT_NAME } from '@eelarve/shared';
import { type ReactNode, useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { Link, Outlet, useLocation } from 'react-router';
import { LogoMark, MenuIcon } from '../../components/icons';
import { useCurrentUser } from '../../app/session';
import { Drawer } from './Drawer';
import { EnvironmentTag } from './EnvironmentTag';
import { OccupationSwitcher } from './OccupationSwitcher';

/** The signed-in frame: header, side drawer and the page; `sider` beside the page (the app decides where). */
export function AppShell({ sider }: { sider?: ReactNode }) {
  const me = useCurrentUser();
  const intl = useIntl();
  const location = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);

  useEffect(() => {
    document.title = me.organizationName ? `${PRODUCT_NAME} – ${me.organizationName}` : PRODUCT_NAME;
  }, [me.organizationName]);

  // Navigating closes the drawer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every location change on purpose
  useEffect(() => {
    setDrawerOpen(false);
  }, [location.pathname]);

  return (
    <div className="app-layout">
      <header className="app-header" data-testid="app-header">
        <div className="header-start">
          {/* The visible product name is the link's accessible name (axe label-content-name-mismatch); "home" is its tooltip. */}
          <Link to="/" className="brand" title={intl.formatMessage({ id: 'shell.home' })} data-testid="header-home">
            <LogoMark size={28} />
            <span className="brand-name">{PRODUCT_NAME}</span>
          </Link>
          <EnvironmentTag />
          {me.organizationName ? (
            <span className="header-organization" data-testid="header-organization">
              {me.organizationName}
            </span>
          ) : null}
        </div>
        <div className="header-end">
          {me.occupations.length > 1 ? <OccupationSwitcher /> : null}
          <span className="header-user" data-testid="header-user">
            {me.name}
          </span>
          <button
            type="button"
            className="icon-button header-menu-button"
            aria-label={intl.formatMessage({ id: 'shell.openMenu' })}
            aria-expanded={drawerOpen}
            onClick={() => setDrawerOpen(true)}
            data-testid="menu-button"
          >
            <MenuIcon />
          </button>
        </div>
      </header>
      <div className="app-body">
        {sider}
        <main className="app-main">
          <Outlet />
        </main>
      </div>
      {drawerOpen ? <Drawer onClose={() => setDrawerOpen(false)} /> : null}
    </div>
  );
}
