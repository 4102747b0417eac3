import type { BudgetCopyPart } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { budgetCopyPartsQuery, copySchemesQuery } from '../api/queries';

export interface CopySchemeChoice {
  schemeId: string;
  copyPinnedPreselections: boolean;
  copySubBudgetPermissions: boolean;
  copyComments: boolean;
}

const noSchemeChoice = (schemeId: string): CopySchemeChoice => ({
  schemeId,
  copyPinnedPreselections: false,
  copySubBudgetPermissions: false,
  copyComments: false,
});

/**
 * The copy-from-existing choice of the budget form (spec 2, section 4): the source budget, its
 * permissions and per scheme what to take along. A part this version cannot carry out is offered
 * greyed out and never sent.
 */
export function useBudgetCopy(documentId: string) {
  const [copying, setCopyingState] = useState(false);
  const [sourceBudgetId, setSourceBudgetId] = useState('');
  const [copyPermissions, setCopyPermissions] = useState(false);
  const [schemeChoices, setSchemeChoices] = useState<Record<string, CopySchemeChoice>>({});
  const copyParts = useQuery({ ...budgetCopyPartsQuery(), enabled: copying });
  const copySchemes = useQuery({ ...copySchemesQuery(sourceBudgetId, documentId), enabled: copying && sourceBudgetId !== '' });
  const unavailable = (part: BudgetCopyPart) => !(copyParts.data?.parts ?? []).includes(part);

  /** Switching the copy on or off (or changing the budget type) starts the choice over. */
  const setCopying = (value: boolean) => {
    setCopyingState(value);
    setSourceBudgetId('');
    setSchemeChoices({});
  };
  const setSchemeChoice = (schemeId: string, change: Partial<CopySchemeChoice>) =>
    setSchemeChoices((current) => ({ ...current, [schemeId]: { ...(current[schemeId] ?? noSchemeChoice(schemeId)), ...change } }));

  /** What the form sends as `copy`: only offered parts, only schemes with something chosen. */
  const options = () => {
    const schemes = (copySchemes.data ?? []).map((scheme) => schemeChoices[scheme.schemeId] ?? noSchemeChoice(scheme.schemeId));
    const offered = schemes.map((scheme) => ({
      ...scheme,
      copyPinnedPreselections: scheme.copyPinnedPreselections && !unavailable('pinnedPreselections'),
      copySubBudgetPermissions: scheme.copySubBudgetPermissions && !unavailable('subBudgetPermissions'),
      copyComments: scheme.copyComments && !unavailable('comments'),
    }));
    return {
      sourceBudgetId,
      copyPermissions: copyPermissions && !unavailable('permissions'),
      schemes: offered.filter((scheme) => scheme.copyComments || scheme.copyPinnedPreselections || scheme.copySubBudgetPermissions),
    };
  };
  const chosen = options();
  const empty = copying && !chosen.copyPermissions && chosen.schemes.length === 0;

  return {
    copying,
    setCopying,
    sourceBudgetId,
    setSourceBudgetId,
    copyPermissions,
    setCopyPermissions,
    schemeChoices,
    setSchemeChoice,
    schemes: copySchemes.data ?? [],
    unavailable,
    options,
    empty,
  };
}

export type BudgetCopy = ReturnType<typeof useBudgetCopy>;
