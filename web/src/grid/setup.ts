import { AllCommunityModule, ModuleRegistry, themeQuartz } from 'ag-grid-community';

let registered = false;

/** Registers the AG Grid Community modules, once for the whole app. */
export function registerGridModules(): void {
  if (registered) return;
  ModuleRegistry.registerModules([AllCommunityModule]);
  registered = true;
}

registerGridModules();

/** The one grid theme of the product; colours follow styles.css. */
export const gridTheme = themeQuartz.withParams({
  fontFamily: 'inherit',
  fontSize: 14,
  headerFontSize: 13,
  headerFontWeight: 600,
  foregroundColor: '#1d2733',
  headerTextColor: '#3b4a5c',
  headerBackgroundColor: '#f3f6fa',
  backgroundColor: '#ffffff',
  oddRowBackgroundColor: '#fbfcfe',
  rowHoverColor: '#eef4fb',
  selectedRowBackgroundColor: '#e2edf9',
  accentColor: '#1f4e8c',
  borderColor: '#dde3ea',
  borderRadius: 6,
  wrapperBorderRadius: 8,
  rowHeight: 44,
  headerHeight: 42,
  spacing: 6,
  cellHorizontalPadding: 14,
});
