import {
  type CommandResult,
  type Document,
  MAX_PERMISSIONS_PER_CHANGE,
  type Occupation,
  type Permission,
  type PermissionInput,
  type PermissionResources,
  type PermissionSubBudget,
} from '@eelarve/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api';
import type { MutationCallbacks } from '../../app/mutation';
import { occupationKeys, organizationPath } from '../../app/organization/accounts';

const enc = encodeURIComponent;

/**
 * Queries of the permission screens (spec 1, section 7). The resource lists sit under the prefix
 * their own feature invalidates (`documents`, `budgets`, `schemes`), so a change made elsewhere
 * shows here too; the grants sit under `permissions`, refreshed after every change made here.
 */
export const permissionKeys = {
  all: ['permissions'] as const,
  occupation: (occupationId: string, documentId: string | null) => ['permissions', 'occupation', occupationId, documentId ?? 'organization'] as const,
  document: (documentId: string) => ['permissions', 'document', documentId] as const,
};

const resourceKeys = {
  documents: (organizationId: string) => ['documents', 'all', organizationId, 'permissions'] as const,
  // Under both prefixes: a budget or a scheme changed elsewhere shows here too.
  resources: (documentId: string) => ['budgets', 'schemes', documentId, 'permission-resources'] as const,
  subBudgets: (schemeId: string) => ['schemes', 'sub-budgets', schemeId, 'permissions'] as const,
};

/** Every document of the organisation, readable or not (GET api/organization/{id}/all-documents). */
export const allDocumentsQuery = (organizationId: string) =>
  queryOptions({ queryKey: resourceKeys.documents(organizationId), queryFn: () => api.get<Document[]>(`${organizationPath(organizationId)}/all-documents`) });

/**
 * The document's budgets and schemes by name (GET api/document/{id}/permission-resources): a user
 * administrator grants on every resource, whatever they were granted themselves. One request
 * serves both selects.
 */
const permissionResourcesQuery = (documentId: string) =>
  queryOptions({
    queryKey: resourceKeys.resources(documentId),
    queryFn: () => api.get<PermissionResources>(`/api/document/${enc(documentId)}/permission-resources`),
    enabled: documentId !== '',
  });

export const documentSchemesQuery = (documentId: string) => ({
  ...permissionResourcesQuery(documentId),
  select: (resources: PermissionResources) => resources.schemes,
});

export const documentBudgetsQuery = (documentId: string) => ({
  ...permissionResourcesQuery(documentId),
  select: (resources: PermissionResources) => resources.budgets,
});

/** A scheme's sub-budgets, the same under every budget (loaded when a budget is opened in the tree). */
export const budgetSubBudgetsQuery = (_budgetId: string, schemeId: string) =>
  queryOptions({
    queryKey: resourceKeys.subBudgets(schemeId),
    queryFn: () => api.get<PermissionSubBudget[]>(`/api/schema/${enc(schemeId)}/permission-sub-budgets`),
  });

export const occupationsQuery = (organizationId: string) =>
  queryOptions({ queryKey: occupationKeys.list(organizationId), queryFn: () => api.get<Occupation[]>(`${organizationPath(organizationId)}/occupations`) });

/** GET api/occupation/{id}/permissions[?documentId=]: the organisation and its documents, or one document's budgets and granted sub-budgets. */
export const occupationPermissionsQuery = (occupationId: string, documentId: string | null) =>
  queryOptions({
    queryKey: permissionKeys.occupation(occupationId, documentId),
    queryFn: () => api.get<Permission[]>(`/api/occupation/${enc(occupationId)}/permissions${documentId ? `?documentId=${enc(documentId)}` : ''}`),
    enabled: occupationId !== '',
  });

/** GET api/document/{id}/permissions: every occupation's grants in the document. */
export const documentPermissionsQuery = (documentId: string) =>
  queryOptions({
    queryKey: permissionKeys.document(documentId),
    queryFn: () => api.get<Permission[]>(`/api/document/${enc(documentId)}/permissions`),
    enabled: documentId !== '',
  });

export const useAllDocuments = (organizationId: string) => useQuery(allDocumentsQuery(organizationId));
export const useDocumentSchemes = (documentId: string) => useQuery(documentSchemesQuery(documentId));
export const useDocumentBudgets = (documentId: string) => useQuery(documentBudgetsQuery(documentId));
export const useOccupations = (organizationId: string) => useQuery(occupationsQuery(organizationId));

export interface PermissionChange {
  occupationId: string;
  permissions: PermissionInput[];
}

/** One grant (PUT api/occupation/{id}/permission) or several (PUT …/permissions, the header toggle). */
function sendChange({ occupationId, permissions }: PermissionChange): Promise<CommandResult> {
  const path = `/api/occupation/${enc(occupationId)}`;
  const [only] = permissions;
  if (permissions.length === 1 && only) return api.put<CommandResult>(`${path}/permission`, only);
  return api.put<CommandResult>(`${path}/permissions`, { permissions });
}

/** Any change to grants: every permission list is read again (an organisation grant reaches every document). */
function useRefreshingMutation<TVariables>(mutationFn: (variables: TVariables) => Promise<unknown>, callbacks: MutationCallbacks<unknown, TVariables>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...callbacks,
    mutationFn,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: permissionKeys.all });
      await callbacks.onSuccess?.(...args);
    },
    // A bulk change over several occupations may stop half-way: what was written is shown.
    onError: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: permissionKeys.all });
      await callbacks.onError?.(...args);
    },
  });
}

/** Changes of one or more occupations (the occupations table's header toggle spans several), one after another. */
async function sendChanges(changes: readonly PermissionChange[]): Promise<void> {
  for (const { occupationId, permissions } of changes) {
    // The server takes at most MAX_PERMISSIONS_PER_CHANGE grants in one call.
    for (let start = 0; start < permissions.length; start += MAX_PERMISSIONS_PER_CHANGE) {
      await sendChange({ occupationId, permissions: permissions.slice(start, start + MAX_PERMISSIONS_PER_CHANGE) });
    }
  }
}

export const useChangePermissions = (callbacks: MutationCallbacks<unknown, PermissionChange[]> = {}) => useRefreshingMutation(sendChanges, callbacks);

export interface PermissionCopy {
  occupationId: string;
  fromOccupationId: string;
}

/** POST api/occupation/{id}/permissions/copy: the occupation's grants become exactly the other's. */
export const useCopyPermissions = (callbacks: MutationCallbacks<unknown, PermissionCopy> = {}) =>
  useRefreshingMutation(
    ({ occupationId, fromOccupationId }: PermissionCopy) =>
      api.post<CommandResult>(`/api/occupation/${enc(occupationId)}/permissions/copy`, { fromOccupationId }),
    callbacks,
  );
