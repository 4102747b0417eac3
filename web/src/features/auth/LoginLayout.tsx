import { PRODUCT_NAME } from '@eelarve/shared';
import { useEffect } from 'react';
import { FormattedMessage } from 'react-intl';
import { Outlet } from 'react-router';
import { LogoMark } from '../../components/icons';
import { LanguageSwitch } from './LanguageSwitch';
import './auth.css';

/** The wrapper of the public pages: product name, language switch and a centred card. */
export function LoginLayout() {
  useEffect(() => {
    document.title = PRODUCT_NAME;
  }, []);

  return (
    <div className="login-layout">
      <header className="login-topbar">
        <div className="brand">
          <LogoMark />
          <span className="brand-name">{PRODUCT_NAME}</span>
        </div>
        <LanguageSwitch />
      </header>
      <main className="login-main">
        <div className="login-card">
          <Outlet />
        </div>
        <p className="login-tagline">
          <FormattedMessage id="login.subtitle" />
        </p>
      </main>
    </div>
  );
}
