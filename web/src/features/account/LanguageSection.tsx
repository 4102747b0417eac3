import { LOCALE_CODES, type LocaleCode } from '@eelarve/shared';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useToasts } from '../../components/Toasts';
import { useLocale } from '../../i18n/I18nProvider';
import { isLocaleCode } from '../../i18n/locale-storage';
import { useCurrentUser } from '../../app/session';
import { AccountSection } from './AccountSection';
import { useChangeLanguage } from './api';

/** The user's language: saved for the account and on this device (spec 1, section 1). */
export function LanguageSection() {
  const me = useCurrentUser();
  const intl = useIntl();
  const { showError } = useToasts();
  const { locale, setLocale } = useLocale();
  const chosen: LocaleCode = isLocaleCode(me.userLanguage) ? me.userLanguage : locale;

  // The choice shows at once (the radio stays checked from the click on), and reverts if saving fails.
  const [choosing, setChoosing] = useState<LocaleCode | null>(null);
  const mutation = useChangeLanguage({
    onSuccess: (_next, language) => setLocale(language),
    onError: showError,
    onSettled: () => setChoosing(null),
  });

  const shown = choosing ?? chosen;
  const choose = (code: LocaleCode) => {
    setChoosing(code);
    mutation.mutate(code);
  };

  return (
    <AccountSection
      title={<FormattedMessage id="account.language.title" />}
      description={<FormattedMessage id="account.language.description" />}
      testId="account-language"
    >
      <fieldset className="fieldset" disabled={mutation.isPending}>
        <legend className="visually-hidden">{intl.formatMessage({ id: 'account.language.title' })}</legend>
        <div className="segmented" role="radiogroup">
          {LOCALE_CODES.map((code) => (
            <label key={code} className={code === shown ? 'segmented-option active' : 'segmented-option'} lang={code}>
              <input
                type="radio"
                name="language"
                value={code}
                checked={code === shown}
                onChange={() => choose(code)}
                data-testid={`account-language-${code}`}
              />
              {intl.formatMessage({ id: `language.${code}` })}
            </label>
          ))}
        </div>
      </fieldset>
    </AccountSection>
  );
}
