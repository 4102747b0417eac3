import type { Me } from '@eelarve/shared';

/**
 * What the browser remembers about sessions (spec 1, section 4):
 * - the current session's user and occupation, so that a 401 after a reload is still recognised
 *   as an expired session;
 * - after an expiry, the last user, occupation and URL: the warning on /login, and the page to
 *   return to when the same user logs in with the same occupation.
 */
const SESSION_KEY = 'eelarve.session';
const EXPIRED_KEY = 'eelarve.expiredSession';

export interface SessionIdentity {
  userId: string;
  occupationId: string | null;
  /** Offered again in the login form after an expiry. */
  email?: string;
}

export interface ExpiredSession extends SessionIdentity {
  /** Path, query and hash to return to; null for pages that are never a redirect target. */
  url: string | null;
}

/** Pages the user is never sent back to after login (spec 1, section 4). */
const NO_REDIRECT_PATHS = [
  '/login',
  '/confirm',
  '/confirm-email',
  '/reset-password',
  '/update-password',
  '/resend-confirmation',
  '/select-occupation',
  '/enter-mfa-code',
  '/setup-mfa',
];

export function isRedirectTarget(pathname: string): boolean {
  return !NO_REDIRECT_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`));
}

function read<T>(key: string): T | null {
  try {
    const raw = window.localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage disabled: the flow still works, without the return to the last page.
  }
}

export function rememberSession(me: Me): void {
  const current = read<SessionIdentity>(SESSION_KEY);
  if (current?.userId === me.id && current.occupationId === me.occupationId && current.email === me.email) return;
  write(SESSION_KEY, { userId: me.id, occupationId: me.occupationId, email: me.email } satisfies SessionIdentity);
}

export function readSession(): SessionIdentity | null {
  const session = read<SessionIdentity>(SESSION_KEY);
  return session && typeof session.userId === 'string' ? session : null;
}

export function forgetSession(): void {
  pendingStep = null;
  write(SESSION_KEY, null);
}

export function recordExpiredSession(expired: ExpiredSession): void {
  write(EXPIRED_KEY, expired);
}

export function readExpiredSession(): ExpiredSession | null {
  const expired = read<ExpiredSession>(EXPIRED_KEY);
  return expired && typeof expired.userId === 'string' ? expired : null;
}

export function clearExpiredSession(): void {
  write(EXPIRED_KEY, null);
}

/** Only same-origin paths are followed. */
function isSafePath(url: string | null): url is string {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\');
}

/**
 * A step the login flow itself chose for a user without an occupation (the MFA code the server
 * asked for at login). Kept for this page only; cleared when the session changes.
 */
let pendingStep: { userId: string; path: string } | null = null;

export function setPendingStep(userId: string, path: string): void {
  pendingStep = { userId, path };
}

export function clearPendingStep(): void {
  pendingStep = null;
}

/**
 * Where a signed-in user goes from the login pages: occupation selection first (or the MFA step
 * the login asked for); then the page where the last session expired if the user and occupation
 * are the same; otherwise the dashboard.
 */
export function postLoginTarget(me: Me): string {
  if (!me.occupationId) return pendingStep?.userId === me.id && isSafePath(pendingStep.path) ? pendingStep.path : '/select-occupation';
  const expired = readExpiredSession();
  if (expired && expired.userId === me.id && expired.occupationId === me.occupationId && isSafePath(expired.url)) {
    return expired.url;
  }
  return '/';
}
