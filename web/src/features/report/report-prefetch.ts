import type { QueryClient } from '@tanstack/react-query';
import { documentQuery } from '../../app/document/current-document';
import { readSession } from '../../app/session';
import { classifiersQuery, reportQuery, reportUserSettingQuery, schemesQuery, storedSettingsQuery } from './api';
import { openingState, reportRequestOf, viewFilters } from './useReportState';

/**
 * Starts the report screen's reads at navigation, before the session, document and budget are read
 * and the screen mounts: the remembered setting and columns, the saved views, the schemes and
 * classifiers, and the document, all at once; then the report the screen will open with. The screen
 * computes its first request with the same functions, so it finds this answer (or its request in
 * flight) under the same query key. Without it the report was asked only after four waves of
 * reads, half the time from navigation to the painted grid. Errors are left to the screen, which
 * reads again and shows them.
 */
export function prefetchReportOpening(queryClient: QueryClient, documentId: string, budgetId: string): void {
  // Only for a session that has entered an occupation: anyone else is sent elsewhere first.
  if (!readSession()?.occupationId) return;
  void openingRequest(queryClient, documentId, budgetId)
    .then((request) => (request ? queryClient.prefetchQuery(reportQuery(budgetId, request)) : undefined))
    .catch(() => undefined);
}

async function openingRequest(queryClient: QueryClient, documentId: string, budgetId: string) {
  const [document, remembered, rememberedColumns, views, schemes, classifiers] = await Promise.all([
    queryClient.ensureQueryData(documentQuery(documentId)),
    queryClient.ensureQueryData(reportUserSettingQuery('REPORT', documentId, budgetId)),
    queryClient.ensureQueryData(reportUserSettingQuery('REPORT_COLUMNS', documentId, budgetId)),
    queryClient.ensureQueryData(storedSettingsQuery(documentId, budgetId, 'REPORT')),
    queryClient.ensureQueryData(schemesQuery(documentId)),
    queryClient.ensureQueryData(classifiersQuery(documentId)),
  ]);
  const { view, columns } = openingState({ remembered: remembered.settings, rememberedColumns: rememberedColumns.settings, views, schemes });
  const filters = viewFilters(
    view,
    document.masterClassifierId,
    classifiers.map((classifier) => classifier.id),
  );
  return reportRequestOf(view, filters, columns);
}
