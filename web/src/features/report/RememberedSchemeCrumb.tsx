import { usePrefetchQuery, useQuery } from '@tanstack/react-query';
import { classifiersQuery, reportUserSettingQuery, schemesQuery, storedSettingsQuery } from './api';

/**
 * The breadcrumb's scheme on the report (spec 3, section 2: "The breadcrumb may show the remembered
 * schema name"): the scheme the user last chose on this budget's report, when the document still has it.
 */
export function RememberedSchemeCrumb({ documentId, budgetId }: { documentId: string; budgetId: string }) {
  const remembered = useQuery(reportUserSettingQuery('REPORT', documentId, budgetId));
  const schemes = useQuery(schemesQuery(documentId));
  usePrefetchReportSettings(documentId, budgetId);
  const scheme = schemes.data?.find((candidate) => candidate.id === remembered.data?.settings.rememberedSchemeId);
  if (!scheme) return null;
  return (
    <>
      <span className="breadcrumb-separator" aria-hidden="true">
        /
      </span>
      <span data-testid="breadcrumb-scheme">{scheme.name}</span>
    </>
  );
}

/**
 * The report screen's other reads before its data (the remembered columns, the saved views, the
 * classifiers), started with the crumb's: the screen mounts only once the budget is read, and in
 * the bench's Chromium trace these waited a round trip for it before the report could be asked.
 */
function usePrefetchReportSettings(documentId: string, budgetId: string) {
  usePrefetchQuery(reportUserSettingQuery('REPORT_COLUMNS', documentId, budgetId));
  usePrefetchQuery(storedSettingsQuery(documentId, budgetId, 'REPORT'));
  usePrefetchQuery(classifiersQuery(documentId));
}
