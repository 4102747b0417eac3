/**
 * Glyphs of the status icons (shared RESOURCE_STATUS_ICONS): text, so that a native select's
 * options can show them too. The same glyphs as the document and budget forms' status select.
 */
const ICON_GLYPHS: Readonly<Record<string, string>> = {
  edit: '✎',
  hourglass: '⧗',
  check: '✓',
  lock: '⚿',
  'eye-off': '⊘',
  pause: '‖',
  archive: '▤',
  flag: '⚑',
  star: '★',
  warning: '⚠',
};

export const statusIconGlyph = (icon: string): string => ICON_GLYPHS[icon] ?? '';
