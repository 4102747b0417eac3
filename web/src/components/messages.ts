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
  // FileInput: the button that opens the file picker and the name shown before a file is chosen.
  'components.fileInput.choose': 'Vali fail',
  'components.fileInput.none': 'Faili pole valitud',
};

const en: typeof et = {
  'components.multiSelect.search': 'Search the options',
  'components.multiSelect.selected': '{count} of {total} selected',
  'components.multiSelect.selectAll': 'Select all',
  'components.multiSelect.clear': 'Clear the selection',
  'components.multiSelect.noMatches': 'No options match',
  'components.multiSelect.more': '+{count}',
  'components.fileInput.choose': 'Choose file',
  'components.fileInput.none': 'No file chosen',
};

export const componentsMessages = { et, en };
