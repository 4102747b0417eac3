import { ADMIN_ROUTE, type Me } from '@eelarve/shared';
import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { NavLink } from 'react-router';
import { access } from '../../app/access';
import { CloseIcon } from '../../components/Modal';
import { useToasts } from '../../components/Toasts';
import type { MessageKey } from '../../i18n/messages';
import { useCurrentUser, useFreshMe, useLogout } from '../../app/session';
import { LogoutDialog } from './LogoutDialog';
import { VersionInfo } from './VersionInfo';

interface MenuItem {
  to: string;
  label: MessageKey;
  testId: string;
  visible: (me: Me) => boolean;
}

/** Spec 1, sections 2 and 6: the menu items and their gates. */
const MENU_ITEMS: MenuItem[] = [
  { to: '/settings', label: 'shell.nav.roles', testId: 'nav-roles', visible: access.roles },
  { to: '/users', label: 'shell.nav.users', testId: 'nav-users', visible: access.users },
  { to: '/resource-statuses', label: 'shell.nav.statuses', testId: 'nav-statuses', visible: access.statuses },
  { to: ADMIN_ROUTE, label: 'shell.nav.administration', testId: 'nav-administration', visible: access.administration },
];

/** The side drawer (width 320): menu, logout and the front-end and API versions. */
export function Drawer({ onClose }: { onClose: () => void }) {
  const me = useCurrentUser();
  const intl = useIntl();
  const { showError } = useToasts();
  const panelRef = useRef<HTMLElement>(null);
  const [sessionCount, setSessionCount] = useState<number | null>(null);

  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    panelRef.current?.querySelector<HTMLElement>('.drawer-items a, .drawer-items button')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      // A dialog on top of the drawer handles its own Escape.
      if (event.key === 'Escape' && !document.querySelector('.modal')) onCloseRef.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  const signOut = useLogout({ onError: showError });

  // The session count may have changed since login: ask the server before deciding.
  const prepareLogout = useFreshMe({
    onSuccess: (fresh) => {
      if (!fresh) return;
      if (fresh.activeSessionCount > 1) setSessionCount(fresh.activeSessionCount);
      else signOut.mutate(false);
    },
    onError: showError,
  });

  const busy = signOut.isPending || prepareLogout.isPending;

  return (
    <div className="drawer-layer">
      <button type="button" className="drawer-backdrop" aria-label={intl.formatMessage({ id: 'shell.closeMenu' })} tabIndex={-1} onClick={onClose} />
      <nav ref={panelRef} className="drawer" aria-label={intl.formatMessage({ id: 'shell.menu' })} data-testid="drawer">
        <div className="drawer-header">
          <span className="drawer-title">
            <FormattedMessage id="shell.menu" />
          </span>
          <button type="button" className="icon-button" onClick={onClose} aria-label={intl.formatMessage({ id: 'shell.closeMenu' })}>
            <CloseIcon />
          </button>
        </div>
        <div className="drawer-user">
          <div className="drawer-user-name">{me.name}</div>
          <div className="muted">{me.email}</div>
        </div>
        <ul className="drawer-items">
          {MENU_ITEMS.filter((item) => item.visible(me)).map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} className="drawer-item" data-testid={item.testId} onClick={onClose}>
                <FormattedMessage id={item.label} />
              </NavLink>
            </li>
          ))}
          <li>
            <button type="button" className="drawer-item" onClick={() => prepareLogout.mutate()} disabled={busy} data-testid="nav-logout">
              <FormattedMessage id="shell.logout" />
            </button>
          </li>
        </ul>
        <VersionInfo />
      </nav>
      {sessionCount !== null ? (
        <LogoutDialog count={sessionCount} busy={signOut.isPending} onCancel={() => setSessionCount(null)} onLogout={(all) => signOut.mutate(all)} />
      ) : null}
    </div>
  );
}
