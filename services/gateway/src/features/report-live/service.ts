import type { FastifyInstance } from 'fastify';
import type { AuthContext } from '../../types';
import { reportService } from '../report/service';

/** What a change stream watches: the report's budget, and a sum budget's components whose records its report counts. */
export interface WatchedReport {
  documentId: string;
  budgetIds: string[];
}

/** Who may follow a report's changes: whoever may read the report (the report's own check and codes). */
export function reportLiveService(app: FastifyInstance) {
  const reports = reportService(app);
  return {
    async watched(auth: AuthContext, budgetId: string): Promise<WatchedReport> {
      const budget = await reports.readableBudget(auth, budgetId);
      return { documentId: budget.documentId, budgetIds: [budget.id, ...budget.componentIds] };
    },
  };
}
