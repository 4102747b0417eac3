import type { AuthenticationType, LoginRequest, Me } from '@eelarve/shared';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api, errorCodeOf, isApiError } from '../../api';
import type { MutationCallbacks } from '../../app/mutation';
import { fetchMe, logout } from '../../app/session';
import { ELECTRONIC_ID_PATHS } from '../../app/session/electronic-id';
import { clearExpiredSession, forgetSession, setPendingStep } from '../../app/session/session-storage';
import { mfaPath } from './mfa-flow';

/** A 401 here means a wrong e-mail or password, not an expired session. */
export function login(request: LoginRequest): Promise<Me> {
  return api.post<Me>('/initial/auth/login', request, { ignoreUnauthorized: true });
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

// ---- electronic ID (authentication type PASS) -------------------------------

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

// ---- hooks -------------------------------------------------------------------

/** Refusals of a sign-in step that leave a session behind and tell where to go next. */
const SIGN_IN_STEPS = new Set<string>(['ENTER_MFA_CODE', 'MFA_NOT_SET_UP', 'ORGANIZATION_UNSUITABLE']);

/** The occupation the server named with ENTER_MFA_CODE / MFA_NOT_SET_UP (null: the user chooses after the code). */
function occupationOfStep(error: unknown): string | null {
  if (!isApiError(error) || typeof error.details !== 'object' || error.details === null) return null;
  const { occupationId } = error.details as { occupationId?: unknown };
  return typeof occupationId === 'string' ? occupationId : null;
}

/**
 * Signs in. The occupation of a link that is not this user's gives an ordinary login instead.
 * Spec 1, section 4: when the organisation wants MFA (or another way in) the session exists (the
 * server set its cookie) and the code entry, its setup, or the occupation list is next.
 */
export async function signIn(request: LoginRequest): Promise<Me> {
  try {
    return await login(request);
  } catch (error) {
    const code = errorCodeOf(error);
    if (code === 'OCCUPATION_NOT_FOUND' && request.occupationId) return login({ ...request, occupationId: null });
    if (!isApiError(error) || error.status !== 403 || !SIGN_IN_STEPS.has(code)) throw error;
    const me = await fetchMe();
    if (!me) throw error;
    if (code !== 'ORGANIZATION_UNSUITABLE') {
      setPendingStep(me.id, mfaPath(code === 'ENTER_MFA_CODE', occupationOfStep(error) ?? request.occupationId));
    }
    return me;
  }
}

export function useSignIn(callbacks: MutationCallbacks<Me, LoginRequest> = {}) {
  return useMutation({ ...callbacks, mutationFn: signIn });
}

/** A link's token is checked once per page: never retried, forgotten when the page goes. */
export const tokenVerificationQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'token', token],
    queryFn: () => verifyToken(token),
    enabled: token !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });

export function useTokenVerification(token: string) {
  return useQuery(tokenVerificationQueryOptions(token));
}

export function useConfirmPassword(callbacks: MutationCallbacks<void, { type: TokenType; token: string; password: string }> = {}) {
  return useMutation({ ...callbacks, mutationFn: confirmPassword });
}

/** Which link an e-mail form asks for. */
export type LinkRequest = 'passwordReset' | 'registrationConfirmation';

const LINK_REQUESTS: Record<LinkRequest, (email: string) => Promise<void>> = {
  passwordReset: requestPasswordReset,
  registrationConfirmation: resendConfirmation,
};

export function useRequestLink(kind: LinkRequest, callbacks: MutationCallbacks<void, string> = {}) {
  return useMutation({ ...callbacks, mutationFn: LINK_REQUESTS[kind] });
}

/**
 * Another authentication type is needed: log out, then /login with that type preselected. The
 * page is loaded afresh, so no guard of the signed-in state can send it elsewhere meanwhile.
 */
export function useRelogin() {
  return useMutation({
    mutationFn: async (path: string) => {
      await logout(false);
      return path;
    },
    onSuccess: (path) => {
      clearExpiredSession();
      forgetSession();
      window.location.assign(path);
    },
  });
}
