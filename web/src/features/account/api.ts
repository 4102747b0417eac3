import type { EmailChangeStatus } from '@eelarve/shared';
import { api } from '../../api';

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
