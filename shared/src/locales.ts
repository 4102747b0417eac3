/** Locales and locale settings (spec 1, sections 3 and 9); served by GET api/locales. */
export const LOCALE_CODES = ['et', 'en'] as const;
export type LocaleCode = (typeof LOCALE_CODES)[number];
export const DEFAULT_LOCALE: LocaleCode = 'et';

export const LOCALE_SETTINGS = [
  { name: 'language', options: ['et', 'en'] },
  { name: 'dateFormat', options: ['dd.MM.yyyy', 'yyyy-MM-dd'] },
  { name: 'decimalSeparator', options: ['comma', 'dot'] },
  { name: 'decimalPlaces', options: ['0', '1', '2', '3', '4', '5'] },
  // Offered by the form but not selectable there (spec 1, section 5: shown disabled).
  { name: 'presetResourceStatusIds', options: ['default'] },
] as const;

export type LocaleSettingName = (typeof LOCALE_SETTINGS)[number]['name'];
export type LocaleSettings = Record<LocaleSettingName, string>;

const common = { decimalPlaces: '2', presetResourceStatusIds: 'default' } as const;

export const LOCALES: ReadonlyArray<{ code: LocaleCode; defaultSettings: LocaleSettings }> = [
  { code: 'et', defaultSettings: { language: 'et', dateFormat: 'dd.MM.yyyy', decimalSeparator: 'comma', ...common } },
  { code: 'en', defaultSettings: { language: 'en', dateFormat: 'dd.MM.yyyy', decimalSeparator: 'comma', ...common } },
];

export function defaultLocaleSettings(code: LocaleCode): LocaleSettings {
  return { ...LOCALES.find((locale) => locale.code === code)!.defaultSettings };
}
