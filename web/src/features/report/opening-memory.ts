import type { ReportRequest } from '@eelarve/shared';
import { readSession } from '../../app/session';

/**
 * The report request this browser last asked on a budget (without `asOf` and `after`), for the
 * page's early reads (public/early-reads.js, same key): on the next visit to that budget's report
 * it asks the same request while the app's code loads, and the app takes the answer if the request
 * it computes is the same text (its remembered settings are what the screen last showed). Only for
 * the same user and occupation; a request the app does not ask again is simply not used.
 */
export const REPORT_OPENING_KEY = 'eelarve.reportOpening';

export interface RememberedOpening {
  userId: string;
  occupationId: string;
  budgetId: string;
  /** The request as the app sends it (JSON.stringify of the request object). */
  body: string;
}

export function rememberReportOpening(budgetId: string, request: ReportRequest): void {
  const session = readSession();
  if (request.asOf || !session?.occupationId) return;
  const { after: _after, ...opening } = request;
  const remembered: RememberedOpening = { userId: session.userId, occupationId: session.occupationId, budgetId, body: JSON.stringify(opening) };
  try {
    window.localStorage.setItem(REPORT_OPENING_KEY, JSON.stringify(remembered));
  } catch {
    // Storage full or denied: the next visit asks after the app has loaded, as without it.
  }
}
