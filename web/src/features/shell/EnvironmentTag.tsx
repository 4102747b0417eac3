import { useIntl } from 'react-intl';
import { FRONT_END_INFO } from '../../api';
import { isMessageKey } from '../../i18n/messages';

/** Marks non-production environments in the header, so that nobody mistakes a test system for the real one. */
export function EnvironmentTag() {
  const intl = useIntl();
  const environment = FRONT_END_INFO.environment;
  if (!environment || environment === 'production') return null;
  const key = `environment.${environment}`;
  const label = isMessageKey(key) ? intl.formatMessage({ id: key }) : environment;
  return (
    <span className={`environment-tag environment-${environment}`} title={intl.formatMessage({ id: 'shell.environment' })} data-testid="environment-tag">
      {label}
    </span>
  );
}
