import type { Me } from '@eelarve/shared';
import { useEffect, useMemo, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocation, useNavigate } from 'react-router';
import { Alert } from '../../components/Alert';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormActions } from '../../components/form';
import { AuthTypeIcon } from '../../components/icons';
import { isUsableWith, type OccupationSummary, orderOccupations, useCurrentUser, useEnterOccupation, useLogout } from '../../app/session';
import { postLoginTarget } from '../../app/session/session-storage';
import { useLocale } from '../../i18n/I18nProvider';
import { useRelogin } from './api';
import type { SelectOccupationState } from './MfaPages';
import { automaticMfaPath, type OccupationRoute, routeForOccupation, routeForSelectError } from './mfa-flow';

/** /select-occupation: the user's occupations (spec 1, section 2 ordering) and logout. */
export function SelectOccupationPage() {
  const me = useCurrentUser();
  const intl = useIntl();
  const { locale } = useLocale();
  const navigate = useNavigate();
  const occupations = useMemo(() => orderOccupations(me, locale), [me, locale]);
  const usable = occupations.filter((occupation) => isUsableWith(occupation, me.authenticationType));

  const location = useLocation();
  const noAutomaticMfa = (location.state as SelectOccupationState | null)?.noAutomaticMfa === true;

  const relogin = useRelogin();

  const follow = (route: OccupationRoute): boolean => {
    if (route.kind === 'mfa') {
      navigate(route.path);
      return true;
    }
    if (route.kind === 'relogin') {
      relogin.mutate(route.path);
      return true;
    }
    return false;
  };

  const select = useEnterOccupation({
    switching: me.occupationId !== null,
    onEntered: (next: Me) => navigate(postLoginTarget(next), { replace: true }),
    onError: (error, occupationId) => {
      const route = routeForSelectError(me, error, occupationId);
      if (route) follow(route);
    },
  });

  const choose = (occupation: OccupationSummary) => {
    if (!follow(routeForOccupation(me, occupation))) select.mutate(occupation.id);
  };

  const signOut = useLogout({ clearOnError: true });

  // A single occupation usable with the current authentication type is chosen automatically.
  // With only MFA-capable organisations: straight to the code entry, or its setup first.
  const autoSelected = useRef(false);
  const onlyUsable = usable.length === 1 ? usable[0] : undefined;
  const automaticMfa = noAutomaticMfa ? null : automaticMfaPath(me);
  useEffect(() => {
    if (me.occupationId || autoSelected.current) return;
    if (onlyUsable) {
      autoSelected.current = true;
      select.mutate(onlyUsable.id);
    } else if (automaticMfa) {
      autoSelected.current = true;
      navigate(automaticMfa, { replace: true });
    }
  }, [me.occupationId, onlyUsable, automaticMfa, select, navigate]);

  const busy = select.isPending || signOut.isPending || relogin.isPending;

  return (
    <div className="select-occupation" data-testid="select-occupation">
      <h1 className="login-title">
        <FormattedMessage id="selectOccupation.title" />
      </h1>
      <p className="muted">
        <FormattedMessage id="selectOccupation.description" />
      </p>
      {select.isError && !routeForSelectError(me, select.error, select.variables ?? '') ? (
        <ErrorAlert error={select.error} testId="select-occupation-error" />
      ) : null}
      {relogin.isError ? <ErrorAlert error={relogin.error} /> : null}
      {occupations.length === 0 ? (
        <Alert kind="info">
          <FormattedMessage id="selectOccupation.empty" />
        </Alert>
      ) : (
        <ul className="occupation-list">
          {occupations.map((occupation) => {
            const isUsable = isUsableWith(occupation, me.authenticationType);
            const route = routeForOccupation(me, occupation);
            return (
              <li key={occupation.id}>
                <button
                  type="button"
                  className={occupation.id === me.occupationId ? 'occupation-option current' : 'occupation-option'}
                  disabled={busy || (!isUsable && route.kind === 'select')}
                  onClick={() => choose(occupation)}
                  data-testid="occupation-option"
                  data-occupation-id={occupation.id}
                >
                  <span className="occupation-main">
                    <span className="occupation-organization">{occupation.organizationName}</span>
                    <span className="occupation-name">
                      {occupation.name}
                      {occupation.type === 'ADMIN' ? (
                        <span className="badge badge-admin">
                          <FormattedMessage id="selectOccupation.admin" />
                        </span>
                      ) : null}
                      {occupation.id === me.lastOccupationId ? (
                        <span className="badge">
                          <FormattedMessage id="selectOccupation.lastUsed" />
                        </span>
                      ) : null}
                    </span>
                    {isUsable ? null : (
                      <span className="occupation-note" data-testid="occupation-note">
                        <FormattedMessage
                          id={
                            route.kind === 'mfa'
                              ? 'selectOccupation.needsMfa'
                              : route.kind === 'relogin'
                                ? 'selectOccupation.needsRelogin'
                                : 'selectOccupation.notUsable'
                          }
                        />
                      </span>
                    )}
                  </span>
                  <span className="auth-type-icons" title={intl.formatMessage({ id: 'selectOccupation.allowedTypes' })}>
                    {occupation.allowedAuthenticationTypes.map((type) => (
                      <span
                        key={type}
                        role="img"
                        className="auth-type-icon"
                        title={intl.formatMessage({ id: `authType.${type}` })}
                        aria-label={intl.formatMessage({ id: `authType.${type}` })}
                      >
                        <AuthTypeIcon type={type} />
                      </span>
                    ))}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <FormActions>
        <button type="button" className="button" onClick={() => signOut.mutate(false)} disabled={busy} data-testid="select-occupation-logout">
          <FormattedMessage id="shell.logout" />
        </button>
      </FormActions>
    </div>
  );
}
