import { LOCALE_CODES } from '@eelarve/shared';
import { useIntl } from 'react-intl';
import { useLocale } from '../../i18n/I18nProvider';

/** The language switch of the login pages (spec 1, section 2). */
export function LanguageSwitch() {
  const intl = useIntl();
  const { locale, setLocale } = useLocale();
  return (
    <fieldset className="language-switch" aria-label={intl.formatMessage({ id: 'language.switch' })} data-testid="language-switch">
      {LOCALE_CODES.map((code) => (
        <button
          key={code}
          type="button"
          lang={code}
          className={code === locale ? 'language-option active' : 'language-option'}
          aria-pressed={code === locale}
          data-testid={`language-${code}`}
          onClick={() => setLocale(code)}
        >
          {intl.formatMessage({ id: `language.${code}` })}
        </button>
      ))}
    </fieldset>
  );
}
