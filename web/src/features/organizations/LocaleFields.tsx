import { FormattedMessage, useIntl } from 'react-intl';
import { FieldSet, SelectField } from '../../components/form';
import { isMessageKey } from '../../i18n/messages';
import type { LocalesResponse } from './api';
import type { SectionProps } from './AuthenticationFields';
import { DISABLED_LOCALE_SETTINGS, defaultSettingsFor } from './organization-form';

/** A translated label (`<prefix>.<name>`), or the name itself for one the catalog lacks. */
function useLabel() {
  const intl = useIntl();
  return (key: string, fallback: string) => (isMessageKey(key) ? intl.formatMessage({ id: key }) : fallback);
}

/** The locale and its settings (date format, decimals…); choosing a locale fills its default settings (spec 1, section 4). */
export function LocaleFields({ form, update, errors, formId, locales }: SectionProps & { locales: LocalesResponse }) {
  const intl = useIntl();
  const label = useLabel();
  const select = intl.formatMessage({ id: 'common.select' });

  return (
    <>
      <SelectField
        id={`${formId}-locale`}
        labelId="organizations.field.localeCode"
        value={form.localeCode}
        onChange={(localeCode) => update({ localeCode, localeSettings: defaultSettingsFor(locales, localeCode) })}
        options={locales.locales.map((locale) => ({ value: locale.code, label: label(`locale.${locale.code}`, locale.code) }))}
        placeholder={select}
        error={errors.localeCode}
        testId="organization-locale-code"
      />

      <FieldSet legend={<FormattedMessage id="organizations.field.localeSettings" />} testId="organization-locale-settings">
        <div className="settings-grid">
          {locales.localeSettings.map((setting) => (
            <SelectField
              key={setting.name}
              id={`${formId}-setting-${setting.name}`}
              label={label(`localeSetting.${setting.name}`, setting.name)}
              value={form.localeSettings[setting.name] ?? ''}
              onChange={(value) => update({ localeSettings: { ...form.localeSettings, [setting.name]: value } })}
              options={setting.options.map((option) => ({
                value: option,
                label: label(`localeSetting.${setting.name}.${option}`, option),
                disabled: DISABLED_LOCALE_SETTINGS.includes(setting.name),
              }))}
              placeholder={select}
              error={errors[`localeSettings.${setting.name}`] ?? errors.localeSettings}
              testId={`organization-locale-setting-${setting.name}`}
            />
          ))}
        </div>
      </FieldSet>
    </>
  );
}
