import type { BudgetCopyPart } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { documentListQuery } from '../../../app/document/current-document';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { CheckboxField, FieldError, type FieldMessage } from '../../../components/form';
import { Spinner } from '../../../components/Spinner';
import { organizationBudgetsQuery } from '../api/queries';
import { BudgetSourceTree } from '../BudgetSourceTree';
import type { BudgetCopy } from './useBudgetCopy';

/** The copy-from-existing part of a new common or monitoring budget (spec 2, section 4). */
export function BudgetCopySection({
  copy,
  documentId,
  organizationId,
  monitoring,
  canCopyPermissions,
  error,
}: {
  copy: BudgetCopy;
  documentId: string;
  organizationId: string;
  monitoring: boolean;
  canCopyPermissions: boolean;
  error?: FieldMessage;
}) {
  const intl = useIntl();
  const partTitle = (part: BudgetCopyPart) => (copy.unavailable(part) ? intl.formatMessage({ id: 'budgets.copy.partUnavailable' }) : undefined);
  return (
    <fieldset className="fieldset" data-testid="budget-copy">
      <CheckboxField checked={copy.copying} onChange={copy.setCopying} testId="budget-copy-enabled">
        <FormattedMessage id="budgets.copy.enabled" />
      </CheckboxField>
      {copy.copying ? (
        <>
          <CopySource copy={copy} documentId={documentId} organizationId={organizationId} error={error} />
          <CheckboxField
            checked={copy.copyPermissions && !copy.unavailable('permissions')}
            disabled={!canCopyPermissions || copy.unavailable('permissions')}
            title={partTitle('permissions')}
            onChange={copy.setCopyPermissions}
            testId="budget-copy-permissions"
          >
            <FormattedMessage id="budgets.copy.permissions" />
          </CheckboxField>
          {copy.schemes.map((scheme) => {
            const choice = copy.schemeChoices[scheme.schemeId];
            const offered = (part: BudgetCopyPart, value: boolean | undefined) => (value ?? false) && !copy.unavailable(part);
            return (
              <div key={scheme.schemeId} className="copy-scheme" data-testid="budget-copy-scheme">
                <div className="copy-scheme-name">{scheme.name}</div>
                <CheckboxField
                  checked={offered('pinnedPreselections', choice?.copyPinnedPreselections)}
                  disabled={monitoring || copy.unavailable('pinnedPreselections')}
                  title={partTitle('pinnedPreselections')}
                  onChange={(checked) => copy.setSchemeChoice(scheme.schemeId, { copyPinnedPreselections: checked })}
                  testId="budget-copy-pinned"
                >
                  <FormattedMessage id="budgets.copy.pinned" values={{ count: scheme.pinnedCount }} />
                </CheckboxField>
                <CheckboxField
                  checked={offered('subBudgetPermissions', choice?.copySubBudgetPermissions)}
                  disabled={!canCopyPermissions || copy.unavailable('subBudgetPermissions')}
                  title={partTitle('subBudgetPermissions')}
                  onChange={(checked) => copy.setSchemeChoice(scheme.schemeId, { copySubBudgetPermissions: checked })}
                  testId="budget-copy-sub-budget-permissions"
                >
                  <FormattedMessage id="budgets.copy.subBudgetPermissions" />
                </CheckboxField>
                <CheckboxField
                  checked={offered('comments', choice?.copyComments)}
                  disabled={monitoring || copy.unavailable('comments')}
                  title={partTitle('comments')}
                  onChange={(checked) => copy.setSchemeChoice(scheme.schemeId, { copyComments: checked })}
                  testId="budget-copy-comments"
                >
                  <FormattedMessage id="budgets.copy.comments" />
                </CheckboxField>
              </div>
            );
          })}
        </>
      ) : null}
    </fieldset>
  );
}

/** The source budget, chosen from a tree of the organisation's documents (same type family: common or monitoring). */
function CopySource({ copy, documentId, organizationId, error }: { copy: BudgetCopy; documentId: string; organizationId: string; error?: FieldMessage }) {
  const labelId = useId();
  const errorId = useId();
  const sources = useQuery(organizationBudgetsQuery(organizationId));
  const sourceDocuments = useQuery(documentListQuery(organizationId));
  const candidates = useMemo(() => (sources.data ?? []).filter((candidate) => candidate.type === 'COMMON' || candidate.type === 'MONITORING'), [sources.data]);
  return (
    <div className="field">
      <span className="field-label" id={labelId}>
        <FormattedMessage id="budgets.copy.source" />
      </span>
      {sources.isPending || sourceDocuments.isPending ? <Spinner /> : null}
      {sources.isError || sourceDocuments.isError ? (
        <ErrorAlert error={sources.error ?? sourceDocuments.error} title={<FormattedMessage id="budgets.loadFailed" />} testId="budget-copy-source-error" />
      ) : null}
      {sources.isSuccess && sourceDocuments.isSuccess ? (
        <BudgetSourceTree
          documents={sourceDocuments.data}
          budgets={candidates}
          currentDocumentId={documentId}
          value={copy.sourceBudgetId}
          onChange={copy.setSourceBudgetId}
          labelledBy={labelId}
          errorId={error ? errorId : undefined}
        />
      ) : null}
      <FieldError error={error} id={errorId} />
    </div>
  );
}
