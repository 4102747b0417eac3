import type { Me } from '@eelarve/shared';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { MutationCallbacks } from '../../app/mutation';
import { api } from '../../api';

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

/** A new secret every time the setup opens: kept while it is open, never reused once it is gone. */
export const mfaSecretQueryOptions = (edit: boolean) =>
  queryOptions({
    queryKey: [...MFA_SECRET_QUERY_KEY, edit],
    queryFn: () => fetchMfaSecret(edit),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });

export function useMfaSecret(edit: boolean) {
  return useQuery(mfaSecretQueryOptions(edit));
}

/** Confirms the setup with a code from the authenticator; with an occupation the session also enters it. */
export function confirmMfaCode(request: { code: string; occupationId?: string }): Promise<Me> {
  return api.post<Me>('/api/auth/confirm-mfa-code', request);
}

/** Turns a password session into an MFA session; with an occupation the session also enters it. */
export function upgradeSessionToMfa(request: { code: string; occupationId?: string }): Promise<Me> {
  return api.post<Me>('/initial/auth/upgrade-session-to-mfa', request);
}

/** Sends a typed code the way the caller's step needs (enter an MFA session, confirm the setup). */
export function useSendMfaCode(send: (code: string) => Promise<Me>, callbacks: MutationCallbacks<Me, string> = {}) {
  return useMutation({ ...callbacks, mutationFn: send });
}
