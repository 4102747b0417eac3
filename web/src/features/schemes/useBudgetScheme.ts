import type { Scheme } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useRememberScheme } from './api/mutations';
import { rememberedSchemeQuery, schemeListQuery } from './api/queries';

/** Where a budget's sub-budgets tab should be: the route's scheme, else the remembered one, else the first. */
export function resolveBudgetScheme(
  schemes: readonly Pick<Scheme, 'id'>[],
  routeSchemeId: string | undefined,
  remembered: string | null,
): { schemeId: string | null; redirect: boolean } {
  if (routeSchemeId && schemes.some((scheme) => scheme.id === routeSchemeId)) return { schemeId: routeSchemeId, redirect: false };
  const target = (remembered && schemes.find((scheme) => scheme.id === remembered)?.id) || schemes[0]?.id || null;
  return { schemeId: target, redirect: target !== null };
}

/**
 * The scheme of a budget's sub-budgets tab (spec 2, Sub-budgets tab of a budget): an invalid or
 * missing scheme in the route redirects (replacing history) to the remembered scheme (user
 * setting BUDGET_SCHEME) if it is one of the document's, otherwise to the first; the shown scheme
 * is remembered.
 */
export function useBudgetScheme(documentId: string, budgetId: string, routeSchemeId: string | undefined) {
  const navigate = useNavigate();
  const schemes = useQuery(schemeListQuery(documentId));
  const remembered = useQuery(rememberedSchemeQuery(budgetId));
  const remember = useRememberScheme(budgetId);
  const ready = schemes.isSuccess && (remembered.isSuccess || remembered.isError);
  const sorted = [...(schemes.data ?? [])].sort((a, b) => a.displayOrder - b.displayOrder || a.name.localeCompare(b.name));
  const resolved = ready ? resolveBudgetScheme(sorted, routeSchemeId, remembered.data ?? null) : { schemeId: null, redirect: false };
  const rememberedId = remembered.data ?? null;
  const { mutate } = remember;

  useEffect(() => {
    if (!ready || !resolved.schemeId) return;
    const tab = `/document/${documentId}/budget/${budgetId}/sub-budgets`;
    // The schemes may load after the user already left the tab: never pull them back to it.
    if (resolved.redirect && window.location.pathname.startsWith(tab)) navigate(`${tab}/${resolved.schemeId}`, { replace: true });
    else if (resolved.schemeId !== rememberedId) mutate(resolved.schemeId);
  }, [ready, resolved.schemeId, resolved.redirect, rememberedId, navigate, mutate, documentId, budgetId]);

  return { schemes: sorted, schemesQuery: schemes, schemeId: resolved.redirect ? null : resolved.schemeId, ready };
}
