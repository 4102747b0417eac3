import { AllCommunityModule, ModuleRegistry, provideGlobalGridOptions, themeQuartz } from 'ag-grid-community';

let registered = false;

/** The style nonce of this page load (`<meta property="csp-nonce">`, see vite.config.ts). */
function cspNonce(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const meta = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  return meta?.nonce || meta?.getAttribute('nonce') || undefined;
}

/** Registers the AG Grid Community modules, once for the whole app. */
export function registerGridModules(): void {
  if (registered) return;
  ModuleRegistry.registerModules([AllCommunityModule]);
  // The grid adds <style> elements; the page's CSP admits them by the nonce the server put in index.html.
  const styleNonce = cspNonce();
  if (styleNonce) provideGlobalGridOptions({ styleNonce });
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
