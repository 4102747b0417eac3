import type { EmailChangeStatus, LocaleCode, Me } from '@eelarve/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api';
import type { MutationCallbacks } from '../../app/mutation';
import { ME_QUERY_KEY, useRefreshMe } from '../../app/session';

export const EMAIL_CHANGE_QUERY_KEY = ['account', 'email-change'] as const;

/** The address awaiting confirmation, if any. */
export function fetchEmailChange(): Promise<EmailChangeStatus> {
  return api.get<EmailChangeStatus>('/api/user-settings/email');
}

/**
 * Asks for a change of one's own e-mail (the current password proves it is the owner). Nothing
 * changes until the link mailed to the new address is opened; answers the address now pending.
 */
export function requestEmailChange(request: { email: string; currentPassword: string }): Promise<EmailChangeStatus> {
  return api.put<EmailChangeStatus>('/api/user-settings/email', request);
}

/** The mailed link's token: the change takes effect (INVALID_OR_EXPIRED_TOKEN once used). */
export function confirmEmailChange(token: string): Promise<{ email: string }> {
  return api.post<{ email: string }>('/public/email-change/confirm', { token });
}

export function changePassword(request: { currentPassword: string; newPassword: string }): Promise<void> {
  return api.post<void>('/api/auth/change-password', request);
}

/** The user's language; answers the updated user. */
export function changeLanguage(language: LocaleCode): Promise<Me> {
  return api.put<Me>('/api/user-settings/language', { language });
}

export function unbindElectronicId(): Promise<void> {
  return api.put<void>('/api/auth/unbind');
}

/** Removes MFA (needs an MFA or electronic-ID session: 403 ENTER_MFA_CODE otherwise). */
export function disableMfa(): Promise<Me> {
  return api.post<Me>('/api/auth/disable-mfa');
}

// ---- hooks -------------------------------------------------------------------

export const emailChangeQueryOptions = () => queryOptions({ queryKey: EMAIL_CHANGE_QUERY_KEY, queryFn: fetchEmailChange });

/** The address awaiting confirmation, or null. */
export function usePendingEmail(): string | null {
  return useQuery(emailChangeQueryOptions()).data?.pendingEmail ?? null;
}

/** The request answers the pending address: it replaces the cached status. */
export function useRequestEmailChange(callbacks: MutationCallbacks<EmailChangeStatus, { email: string; currentPassword: string }> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...callbacks,
    mutationFn: requestEmailChange,
    onSuccess: (status, ...rest) => {
      queryClient.setQueryData(EMAIL_CHANGE_QUERY_KEY, status);
      return callbacks.onSuccess?.(status, ...rest);
    },
  });
}

/** Opening the mailed link changes the address: the user and the pending status are read again. */
export function useConfirmEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmEmailChange,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
      await queryClient.invalidateQueries({ queryKey: EMAIL_CHANGE_QUERY_KEY });
    },
  });
}

function isMe(value: unknown): value is Me {
  return typeof value === 'object' && value !== null && 'id' in value;
}

/** Runs the screen's reaction, then refreshes the signed-in user (with the server's copy when it sent one). */
function useThenRefreshMe<TData, TVariables>(callbacks: MutationCallbacks<TData, TVariables>) {
  const refreshMe = useRefreshMe();
  return async (...args: Parameters<NonNullable<MutationCallbacks<TData, TVariables>['onSuccess']>>) => {
    await callbacks.onSuccess?.(...args);
    // An answer that is the user (language, MFA) is taken as it is; otherwise the user is read again.
    const [data] = args;
    await refreshMe(isMe(data) ? data : undefined);
  };
}

export function useChangePassword(callbacks: MutationCallbacks<void, { currentPassword: string; newPassword: string }> = {}) {
  const onSuccess = useThenRefreshMe(callbacks);
  return useMutation({ ...callbacks, mutationFn: changePassword, onSuccess });
}

export function useChangeLanguage(callbacks: MutationCallbacks<Me, LocaleCode> = {}) {
  const onSuccess = useThenRefreshMe(callbacks);
  return useMutation({ ...callbacks, mutationFn: changeLanguage, onSuccess });
}

export function useUnbindElectronicId(callbacks: MutationCallbacks<void, void> = {}) {
  const onSuccess = useThenRefreshMe(callbacks);
  return useMutation({ ...callbacks, mutationFn: unbindElectronicId, onSuccess });
}

export function useDisableMfa(callbacks: MutationCallbacks<Me, void> = {}) {
  const onSuccess = useThenRefreshMe(callbacks);
  return useMutation({ ...callbacks, mutationFn: disableMfa, onSuccess });
}
