import { FormattedMessage, useIntl } from 'react-intl';
import { NavLink } from 'react-router';
import type { MessageKey } from '../i18n/messages';

export interface Tab {
  to: string;
  label: MessageKey;
  testId: string;
  /** Active only on exactly `to` (not below it). */
  end?: boolean;
  /** Shown, but not a link (`aria-disabled`). */
  disabled?: boolean;
}

/** The tabs of an area: links that replace the history entry; `labelId` names the navigation. */
export function TabNav({ labelId, tabs }: { labelId: MessageKey; tabs: readonly Tab[] }) {
  const intl = useIntl();
  return (
    <nav className="tabs" aria-label={intl.formatMessage({ id: labelId })}>
      {tabs.map((tab) =>
        tab.disabled ? (
          <span key={tab.to} className="tab tab-disabled" aria-disabled="true" data-testid={tab.testId}>
            <FormattedMessage id={tab.label} />
          </span>
        ) : (
          <NavLink key={tab.to} to={tab.to} end={tab.end} replace className={({ isActive }) => (isActive ? 'tab active' : 'tab')} data-testid={tab.testId}>
            <FormattedMessage id={tab.label} />
          </NavLink>
        ),
      )}
    </nav>
  );
}
