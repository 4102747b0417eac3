import { DEFAULT_LOCALE, LOCALE_CODES, type LocaleCode } from '@eelarve/shared';

/** The locale chosen on this device (spec 1, section 1: "the locale is also stored locally"). */
export const LOCALE_STORAGE_KEY = 'eelarve.locale';

export function isLocaleCode(value: unknown): value is LocaleCode {
  return typeof value === 'string' && (LOCALE_CODES as readonly string[]).includes(value);
}

export function readStoredLocale(): LocaleCode {
  try {
    const stored = window.localStorage.getItem(LOCALE_STORAGE_KEY);
    return isLocaleCode(stored) ? stored : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

export function storeLocale(locale: LocaleCode): void {
  try {
    window.localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Storage may be disabled (private mode); the choice then lasts for this page only.
  }
}
