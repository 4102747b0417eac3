import type { ResourceStatus } from '@eelarve/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api';

export const resourceStatusKeys = {
  all: ['resource-statuses'] as const,
  list: (organizationId: string) => [...resourceStatusKeys.all, organizationId] as const,
};

/** GET api/resource-statuses: the organisation's statuses, the defaults first. */
export const fetchResourceStatuses = () => api.get<ResourceStatus[]>('/api/resource-statuses');

export const resourceStatusesQueryOptions = (organizationId: string) =>
  queryOptions({ queryKey: resourceStatusKeys.list(organizationId), queryFn: fetchResourceStatuses });

export const useResourceStatuses = (organizationId: string) => useQuery(resourceStatusesQueryOptions(organizationId));
