import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { useToasts } from '../../components/Toasts';
import { useLocale } from '../../i18n/I18nProvider';
import { switchOccupation } from '../auth/api';
import { useCurrentUser } from '../auth/hooks';
import { isUsableWith, orderOccupations } from '../auth/occupations';
import { resetClientState } from '../auth/session';

/** Header select of the user's occupations (only shown with more than one). */
export function OccupationSwitcher() {
  const me = useCurrentUser();
  const intl = useIntl();
  const id = useId();
  const { locale } = useLocale();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { showError } = useToasts();
  const occupations = useMemo(() => orderOccupations(me, locale), [me, locale]);

  const mutation = useMutation({
    mutationFn: switchOccupation,
    onSuccess: (next) => {
      // Switching clears cached data and reloads the user (spec 1, section 4).
      resetClientState(queryClient, next);
      navigate('/');
    },
    onError: showError,
  });

  return (
    <div className="occupation-switcher">
      <label htmlFor={id} className="visually-hidden">
        {intl.formatMessage({ id: 'shell.occupation' })}
      </label>
      <select
        id={id}
        value={me.occupationId ?? ''}
        disabled={mutation.isPending}
        onChange={(event) => mutation.mutate(event.target.value)}
        data-testid="occupation-switcher"
      >
        {occupations.map((occupation) => (
          <option key={occupation.id} value={occupation.id} disabled={!isUsableWith(occupation, me.authenticationType)}>
            {intl.formatMessage(
              { id: 'shell.occupationOption' },
              { occupation: occupation.name, organization: occupation.organizationName },
            )}
          </option>
        ))}
      </select>
    </div>
  );
}
