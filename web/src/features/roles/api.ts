import type { CommandResult, Privilege, Role, RoleInput } from '@eelarve/shared';
import { api } from '../../api';

/** GET api/privileges: every privilege the product knows (spec 1, section 6). */
export interface PrivilegeOption {
  id: Privilege;
  name: string;
}

const org = (organizationId: string) => `/api/organization/${encodeURIComponent(organizationId)}`;

export const roleKeys = {
  all: ['roles'] as const,
  list: (organizationId: string) => [...roleKeys.all, organizationId] as const,
};
export const PRIVILEGES_QUERY_KEY = ['privileges'] as const;

export const fetchRoles = (organizationId: string) => api.get<Role[]>(`${org(organizationId)}/roles`);
export const fetchPrivileges = () => api.get<PrivilegeOption[]>('/api/privileges');

/** The role body of spec 1, section 7: name, description, privilegeIds (id and organizationId on update). */
export type RolePayload = Required<Pick<RoleInput, 'name' | 'description' | 'privilegeIds'>>;

export const createRole = (organizationId: string, body: RolePayload) => api.post<CommandResult>(`${org(organizationId)}/role`, body);
export const updateRole = (organizationId: string, id: string, body: RolePayload) =>
  api.put<CommandResult>(`${org(organizationId)}/role/${encodeURIComponent(id)}`, { id, organizationId, ...body });
export const deleteRole = (organizationId: string, id: string) =>
  api.delete<CommandResult>(`${org(organizationId)}/role/${encodeURIComponent(id)}`);
