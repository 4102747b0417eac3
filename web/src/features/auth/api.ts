import type { AuthenticationType, LocaleCode, LoginRequest, Me } from '@eelarve/shared';
import { api, isApiError } from '../../api';

export const ME_QUERY_KEY = ['auth', 'me'] as const;

/** The signed-in user, or null when there is no session. */
export async function fetchMe(): Promise<Me | null> {
  try {
    return await api.get<Me>('/api/auth/me');
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}

/** A 401 here means a wrong e-mail or password, not an expired session. */
export function login(request: LoginRequest): Promise<Me> {
  return api.post<Me>('/initial/auth/login', request, { ignoreUnauthorized: true });
}

/** Chooses the occupation right after login (no occupation in the session yet). */
export function selectOccupation(occupationId: string): Promise<Me> {
  return api.post<Me>('/initial/auth/select-occupation', { occupationId });
}

/** Switches to another occupation of a signed-in user. */
export function switchOccupation(occupationId: string): Promise<Me> {
  return api.post<Me>('/api/auth/switch', { occupationId });
}

/** Ends this session or every session of the user; a 401 means it is already gone. */
export async function logout(logoutAllSessions: boolean): Promise<void> {
  try {
    await api.post<void>('/api/auth/logout', { logoutAllSessions }, { ignoreUnauthorized: true });
  } catch (error) {
    if (isApiError(error) && error.status === 401) return;
    throw error;
  }
}

// ---- tokens and passwords (public pages) -----------------------------------

export type TokenType = 'REGISTRATION' | 'RESET';

export interface TokenVerification {
  allowedAuthenticationTypes: AuthenticationType[];
}

/** Checks a registration or reset link's token; 422 INVALID_OR_EXPIRED_TOKEN when it is not usable. */
export function verifyToken(token: string): Promise<TokenVerification> {
  return api.post<TokenVerification>('/public/token/verify', { token }, { ignoreUnauthorized: true });
}

/** Sets the password of a registration or reset link. */
export function confirmPassword(request: { type: TokenType; token: string; password: string }): Promise<void> {
  return api.post<void>('/public/auth/confirm-password', request, { ignoreUnauthorized: true });
}

/** Always answers 204 (whether the address is known is not revealed). */
export function requestPasswordReset(email: string): Promise<void> {
  return api.post<void>('/public/auth/request-password-reset', { email }, { ignoreUnauthorized: true });
}

/** Always answers 204 (whether the address is known is not revealed). */
export function resendConfirmation(email: string): Promise<void> {
  return api.post<void>('/public/auth/resend-confirmation', { email }, { ignoreUnauthorized: true });
}

// ---- multi-factor authentication -------------------------------------------

export interface MfaSecret {
  /** otpauth:// URI. */
  uri: string;
  /** The base32 secret for typing in by hand. */
  code: string;
  /** The URI as a QR code image (data: URL). */
  qrCode: string;
}

export const MFA_SECRET_QUERY_KEY = ['auth', 'mfa-secret'] as const;

/**
 * A new secret for setting up MFA; `edit` re-runs the setup of an added MFA (the server then
 * wants an MFA or electronic-ID session: 403 ENTER_MFA_CODE otherwise).
 */
export function fetchMfaSecret(edit = false): Promise<MfaSecret> {
  return api.get<MfaSecret>(edit ? '/api/auth/mfa-secret?edit=true' : '/api/auth/mfa-secret');
}

/** Confirms the setup with a code from the authenticator; with an occupation the session also enters it. */
export function confirmMfaCode(request: { code: string; occupationId?: string }): Promise<Me> {
  return api.post<Me>('/api/auth/confirm-mfa-code', request);
}

/** Turns a password session into an MFA session; with an occupation the session also enters it. */
export function upgradeSessionToMfa(request: { code: string; occupationId?: string }): Promise<Me> {
  return api.post<Me>('/initial/auth/upgrade-session-to-mfa', request);
}

/** Removes MFA (needs an MFA or electronic-ID session: 403 ENTER_MFA_CODE otherwise). */
export function disableMfa(): Promise<Me> {
  return api.post<Me>('/api/auth/disable-mfa');
}

// ---- electronic ID (authentication type PASS) -------------------------------

/**
 * Addresses the browser is sent to as a whole page: the server talks to the electronic-ID
 * provider and redirects back (spec 1, section 2).
 */
export const ELECTRONIC_ID_PATHS = {
  login: '/public/auth/pass-login',
  bind: '/api/auth/pass-bind',
  confirm: '/public/auth/pass-confirm',
} as const;

export function electronicIdConfirmUrl(token: string, type: TokenType): string {
  return `${ELECTRONIC_ID_PATHS.confirm}?${new URLSearchParams({ token, type }).toString()}`;
}

/**
 * The electronic-ID login. After it the server sends the browser to `redirect`: /login, whose
 * guard then goes on to the page remembered from an expired session when the user and occupation
 * match (spec 1, section 4), else to the occupation selection or home.
 */
export function electronicIdLoginUrl(): string {
  return `${ELECTRONIC_ID_PATHS.login}?${new URLSearchParams({ redirect: '/login' }).toString()}`;
}

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

export function unbindElectronicId(): Promise<void> {
  return api.put<void>('/api/auth/unbind');
}

// ---- account settings -------------------------------------------------------

export function changePassword(request: { currentPassword: string; newPassword: string }): Promise<void> {
  return api.post<void>('/api/auth/change-password', request);
}

/** The user's language; answers the updated user. */
export function changeLanguage(language: LocaleCode): Promise<Me> {
  return api.put<Me>('/api/user-settings/language', { language });
}
