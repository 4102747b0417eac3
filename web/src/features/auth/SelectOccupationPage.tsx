import type { Me } from '@eelarve/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { Alert } from '../../components/Alert';
import { ErrorAlert } from '../../components/ErrorAlert';
import { AuthTypeIcon } from '../../components/icons';
import { useLocale } from '../../i18n/I18nProvider';
import { logout, selectOccupation, switchOccupation } from './api';
import { useCurrentUser } from './hooks';
import { isUsableWith, orderOccupations } from './occupations';
import { resetClientState } from './session';
import { clearExpiredSession, postLoginTarget } from './session-storage';

/** /select-occupation: the user's occupations (spec 1, section 2 ordering) and logout. */
export function SelectOccupationPage() {
  const me = useCurrentUser();
  const intl = useIntl();
  const { locale } = useLocale();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const occupations = useMemo(() => orderOccupations(me, locale), [me, locale]);
  const usable = occupations.filter((occupation) => isUsableWith(occupation, me.authenticationType));

  const select = useMutation({
    mutationFn: (occupationId: string) => (me.occupationId ? switchOccupation(occupationId) : selectOccupation(occupationId)),
    onSuccess: (next: Me) => {
      resetClientState(queryClient, next);
      navigate(postLoginTarget(next), { replace: true });
    },
  });

  const signOut = useMutation({
    mutationFn: () => logout(false),
    onSettled: () => {
      clearExpiredSession();
      resetClientState(queryClient, null);
    },
  });

  // A single occupation usable with the current authentication type is chosen automatically.
  const autoSelected = useRef(false);
  const onlyUsable = usable.length === 1 ? usable[0] : undefined;
  useEffect(() => {
    if (me.occupationId || !onlyUsable || autoSelected.current) return;
    autoSelected.current = true;
    select.mutate(onlyUsable.id);
  }, [me.occupationId, onlyUsable, select]);

  const busy = select.isPending || signOut.isPending;

  return (
    <div className="select-occupation" data-testid="select-occupation">
      <h1 className="login-title">
        <FormattedMessage id="selectOccupation.title" />
      </h1>
      <p className="muted">
        <FormattedMessage id="selectOccupation.description" />
      </p>
      {select.isError ? <ErrorAlert error={select.error} /> : null}
      {occupations.length === 0 ? (
        <Alert kind="info">
          <FormattedMessage id="selectOccupation.empty" />
        </Alert>
      ) : (
        <ul className="occupation-list">
          {occupations.map((occupation) => {
            const isUsable = isUsableWith(occupation, me.authenticationType);
            return (
              <li key={occupation.id}>
                <button
                  type="button"
                  className={occupation.id === me.occupationId ? 'occupation-option current' : 'occupation-option'}
                  disabled={busy || !isUsable}
                  onClick={() => select.mutate(occupation.id)}
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
                      <span className="occupation-note">
                        <FormattedMessage id="selectOccupation.notUsable" />
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
      <div className="form-actions">
        <button type="button" className="button" onClick={() => signOut.mutate()} disabled={busy} data-testid="select-occupation-logout">
          <FormattedMessage id="shell.logout" />
        </button>
      </div>
    </div>
  );
}
