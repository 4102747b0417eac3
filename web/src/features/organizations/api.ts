import type { AdminChangeResponse, CommandResult, Organization, organizationInputSchema } from '@eelarve/shared';
import { api } from '../../api';

/** The organisation body as the shared schema outputs it (defaults applied, name trimmed). */
export type OrganizationPayload = ReturnType<typeof organizationInputSchema.parse>;

export interface LocalesResponse {
  locales: Array<{ code: string; defaultSettings: Record<string, string> }>;
  localeSettings: Array<{ name: string; options: string[] }>;
}

export const organizationKeys = {
  all: ['organizations'] as const,
  list: () => [...organizationKeys.all, 'list'] as const,
};
export const LOCALES_QUERY_KEY = ['locales'] as const;

export const fetchOrganizations = () => api.get<Organization[]>('/api/organizations');
export const fetchLocales = () => api.get<LocalesResponse>('/api/locales');
export const createOrganization = (body: OrganizationPayload) => api.post<CommandResult>('/api/organization', body);
export const updateOrganization = (id: string, body: OrganizationPayload) =>
  api.put<CommandResult>(`/api/organization/${encodeURIComponent(id)}`, body);
export const deleteOrganization = (id: string) => api.delete<CommandResult>(`/api/organization/${encodeURIComponent(id)}`);

/** IS_ADMIN: gives the signed-in user an administrator occupation in the organisation; answers the new `me`. */
export const setOrganizationAdmin = (organizationId: string) =>
  api.post<AdminChangeResponse>(`/api/admin/${encodeURIComponent(organizationId)}`);
/**
 * Removes the signed-in user's administrator occupation in the organisation; answers the new `me`
 * (`reloginRequired` when it was the occupation of this session: the session has ended).
 */
export const removeOrganizationAdmin = (organizationId: string) =>
  api.delete<AdminChangeResponse>(`/api/admin/${encodeURIComponent(organizationId)}`);
