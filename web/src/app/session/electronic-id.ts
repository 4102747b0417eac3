/**
 * Addresses the browser is sent to as a whole page: the server talks to the electronic-ID
 * provider and redirects back (spec 1, section 2).
 */
export const ELECTRONIC_ID_PATHS = {
  login: '/public/auth/pass-login',
  bind: '/api/auth/pass-bind',
  confirm: '/public/auth/pass-confirm',
} as const;

/**
 * Sends the whole page to an electronic-ID address (the provider's pages follow). The server
 * is told first (spec 1, section 7: GET public/auth/pass-redirect-log); that call may not delay
 * or stop the redirect.
 */
export function navigateToElectronicId(url: string): void {
  try {
    void fetch('/public/auth/pass-redirect-log', { credentials: 'same-origin', keepalive: true }).catch(() => undefined);
  } catch {
    // Logging is best effort.
  }
  window.location.assign(url);
}
