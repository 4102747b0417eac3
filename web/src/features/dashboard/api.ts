import type { UserActionLog } from '@eelarve/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api';

/** The current occupation's recently visited report views (spec 1, section 2): newest first, at most 10. */
export const recentReportViewsQuery = () =>
  queryOptions({
    queryKey: ['user-action-logs', 'current-occupation'] as const,
    queryFn: () => api.get<UserActionLog[]>('/api/user-action-logs/current-occupation'),
  });

/** Where a row leads: the budget's report tab. */
export const reportPath = (view: Pick<UserActionLog, 'documentId' | 'budgetId'>) =>
  `/document/${encodeURIComponent(view.documentId)}/budget/${encodeURIComponent(view.budgetId)}/report`;
