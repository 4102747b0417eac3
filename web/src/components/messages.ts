/**
 * Strings of the shared components (web/src/components); spread into both catalogs.
 * `en` must carry exactly the keys of `et` (the type below makes a missing key a compile error).
 */
const et = {
  // MultiSelect: its popup and the "+n" of the chosen values it does not show.
  'components.multiSelect.search': 'Otsi valikute hulgast',
  'components.multiSelect.selected': 'Valitud {count} / {total}',
  'components.multiSelect.selectAll': 'Vali kõik',
  'components.multiSelect.clear': 'Tühjenda valik',
  'components.multiSelect.noMatches': 'Sobivaid valikuid ei leitud',
  'components.multiSelect.more': '+{count}',
};

const en: typeof et = {
  'components.multiSelect.search': 'Search the options',
  'components.multiSelect.selected': '{count} of {total} selected',
  'components.multiSelect.selectAll': 'Select all',
  'components.multiSelect.clear': 'Clear the selection',
  'components.multiSelect.noMatches': 'No options match',
  'components.multiSelect.more': '+{count}',
};

export const componentsMessages = { et, en };
