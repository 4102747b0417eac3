import { useQuery } from '@tanstack/react-query';
import { reportUserSettingQuery, schemesQuery } from './api';

/**
 * The breadcrumb's scheme on the report (spec 3, section 2: "The breadcrumb may show the remembered
 * schema name"): the scheme the user last chose on this budget's report, when the document still has it.
 */
export function RememberedSchemeCrumb({ documentId, budgetId }: { documentId: string; budgetId: string }) {
  const remembered = useQuery(reportUserSettingQuery('REPORT', documentId, budgetId));
  const schemes = useQuery(schemesQuery(documentId));
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
