import type { Role } from '@eelarve/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../api';

/**
 * The query keys of an organisation's accounts. The users area shows role names and the roles page
 * shows whether a role is in use, so each refreshes the other's lists: their keys live here, with
 * the role list the occupation form offers (issue 9: no feature reads another's files).
 */
export const userKeys = {
  all: ['users'] as const,
  organization: (organizationId: string) => [...userKeys.all, organizationId] as const,
  list: (organizationId: string) => [...userKeys.all, organizationId, 'list'] as const,
  names: (organizationId: string) => [...userKeys.all, organizationId, 'names'] as const,
};

export const occupationKeys = {
  all: ['occupations'] as const,
  list: (organizationId: string) => [...occupationKeys.all, organizationId] as const,
};

export const roleKeys = {
  all: ['roles'] as const,
  list: (organizationId: string) => [...roleKeys.all, organizationId] as const,
};

export const organizationPath = (organizationId: string) => `/api/organization/${encodeURIComponent(organizationId)}`;

export const fetchRoles = (organizationId: string) => api.get<Role[]>(`${organizationPath(organizationId)}/roles`);

export const rolesQueryOptions = (organizationId: string) =>
  queryOptions({ queryKey: roleKeys.list(organizationId), queryFn: () => fetchRoles(organizationId) });

/** The organisation's roles (the roles page, and the roles an occupation may get). */
export function useRoles(organizationId: string) {
  return useQuery(rolesQueryOptions(organizationId));
}
