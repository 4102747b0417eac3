import { useMemo, useState } from 'react';
import { useLocale } from '../i18n/I18nProvider';

/**
 * The search of a list grid: the text typed and the rows in which one of `textsOf(row)` contains
 * it (trimmed, case-insensitive in the UI language). `textsOf` must be stable (defined outside
 * the component).
 */
export function useGridSearch<T>(
  data: T[] | undefined,
  textsOf: (row: T) => readonly string[],
): { search: string; setSearch: (value: string) => void; rows: T[] } {
  const { locale } = useLocale();
  const [search, setSearch] = useState('');
  const rows = useMemo(() => {
    const needle = search.trim().toLocaleLowerCase(locale);
    const all = data ?? [];
    if (!needle) return all;
    return all.filter((row) => textsOf(row).some((text) => text.toLocaleLowerCase(locale).includes(needle)));
  }, [data, search, locale, textsOf]);
  return { search, setSearch, rows };
}
