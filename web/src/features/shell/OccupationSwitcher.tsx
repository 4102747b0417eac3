import { type RefObject, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { useToasts } from '../../components/Toasts';
import { useLocale } from '../../i18n/I18nProvider';
import { isUsableWith, orderOccupations, useCurrentUser, useEnterOccupation } from '../../app/session';

/** Header select of the user's occupations (only shown with more than one). */
export function OccupationSwitcher() {
  const me = useCurrentUser();
  const intl = useIntl();
  const id = useId();
  const { locale } = useLocale();
  const navigate = useNavigate();
  const { showError } = useToasts();
  const occupations = useMemo(() => orderOccupations(me, locale), [me, locale]);
  const labelOf = (occupation: (typeof occupations)[number]) =>
    intl.formatMessage({ id: 'shell.occupationOption' }, { occupation: occupation.name, organization: occupation.organizationName });
  const current = occupations.find((occupation) => occupation.id === me.occupationId);
  const currentLabel = current ? labelOf(current) : '';
  const selectRef = useRef<HTMLSelectElement>(null);
  const cutOff = useIsCutOff(selectRef, currentLabel);

  // Switching clears cached data and reloads the user (spec 1, section 4), then goes home.
  const mutation = useEnterOccupation({ switching: true, onEntered: () => navigate('/'), onError: showError });

  return (
    <div className="occupation-switcher">
      <label htmlFor={id} className="visually-hidden">
        {intl.formatMessage({ id: 'shell.occupation' })}
      </label>
      <select
        id={id}
        ref={selectRef}
        title={cutOff ? currentLabel : undefined}
        value={me.occupationId ?? ''}
        disabled={mutation.isPending}
        onChange={(event) => mutation.mutate(event.target.value)}
        data-testid="occupation-switcher"
      >
        {occupations.map((occupation) => (
          <option key={occupation.id} value={occupation.id} disabled={!isUsableWith(occupation, me.authenticationType)}>
            {labelOf(occupation)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Room a select keeps beside its text: padding and the arrow (styles.css .occupation-switcher select). */
const SELECT_CHROME_PX = 40;

/** Whether `text` is wider than the select shows (then it ends in an ellipsis and gets a tooltip). */
function useIsCutOff(selectRef: RefObject<HTMLSelectElement | null>, text: string): boolean {
  const [cutOff, setCutOff] = useState(false);
  useLayoutEffect(() => {
    const select = selectRef.current;
    const context = document.createElement('canvas').getContext('2d');
    if (!select || !context) return;
    context.font = getComputedStyle(select).font;
    setCutOff(context.measureText(text).width > select.clientWidth - SELECT_CHROME_PX);
  }, [selectRef, text]);
  return cutOff;
}
