import { FormattedMessage, useIntl } from 'react-intl';
import { FRONT_END_INFO, useApiInfo } from '../../api';

/** Drawer footer: the front end's build (injected at build time) and the API's (response headers). */
export function VersionInfo() {
  const intl = useIntl();
  const apiInfo = useApiInfo();
  const unknown = intl.formatMessage({ id: 'shell.version.unknown' });
  const builtAt = (time: string | null) =>
    time && !Number.isNaN(Date.parse(time))
      ? intl.formatMessage({ id: 'shell.version.builtAt' }, { time: intl.formatDate(time, { dateStyle: 'short', timeStyle: 'short' }) })
      : undefined;

  return (
    <footer className="drawer-footer" data-testid="version-info">
      <div title={builtAt(FRONT_END_INFO.buildTime)} data-testid="version-front-end">
        <span className="version-label">
          <FormattedMessage id="shell.version.frontEnd" />
        </span>
        <span>
          <FormattedMessage id="shell.version.value" values={{ version: FRONT_END_INFO.version, revision: FRONT_END_INFO.revision }} />
        </span>
      </div>
      <div title={builtAt(apiInfo.buildTime)} data-testid="version-api">
        <span className="version-label">
          <FormattedMessage id="shell.version.api" />
        </span>
        <span>
          <FormattedMessage id="shell.version.value" values={{ version: apiInfo.version ?? unknown, revision: apiInfo.revision ?? unknown }} />
        </span>
      </div>
    </footer>
  );
}
