import type { Me } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { canCopyClassifiers, canCopyPermissions, canCopySchemes } from '../../../app/document/access';
import { documentListQuery } from '../../../app/document/current-document';
import { CheckboxField, type FieldMessage, SelectField } from '../../../components/form';
import type { DocumentCopy } from './useDocumentCopy';

type CopyPartMessage = 'documents.copy.permissions' | 'documents.copy.classifiers' | 'documents.copy.schemes' | 'documents.copy.reportViews';

/** Copy from an existing document: the source and which parts to take along (spec 2, section 5). */
export function DocumentCopyFieldset({
  copy,
  me,
  organizationId,
  sourceError,
}: {
  copy: DocumentCopy;
  me: Me;
  organizationId: string;
  sourceError?: FieldMessage;
}) {
  const intl = useIntl();
  const current = copy.copy;
  const sources = useQuery(documentListQuery(organizationId));
  return (
    <fieldset className={current.enabled ? 'fieldset document-copy open' : 'fieldset document-copy'} data-testid="document-copy">
      <CheckboxField checked={current.enabled} onChange={copy.setEnabled} testId="document-copy-enabled">
        <FormattedMessage id="documents.copy.enabled" />
      </CheckboxField>
      {current.enabled ? (
        <>
          <SelectField
            labelId="documents.copy.source"
            value={current.sourceDocumentId}
            onChange={(sourceDocumentId) => copy.change({ sourceDocumentId })}
            options={(sources.data ?? []).map((source) => ({ value: source.id, label: source.name }))}
            placeholder={intl.formatMessage({ id: 'common.select' })}
            error={sourceError}
            testId="document-copy-source"
          />
          <div className="choice-column">
            <CopyOption
              messageId="documents.copy.permissions"
              testId="document-copy-permissions"
              checked={current.permissions}
              disabled={!canCopyPermissions(me)}
              unavailable={copy.unavailable('permissions')}
              onChange={(permissions) => copy.change({ permissions })}
            />
            <CopyOption
              messageId="documents.copy.classifiers"
              testId="document-copy-classifiers"
              checked={current.classifiers}
              disabled={!canCopyClassifiers(me)}
              unavailable={copy.unavailable('classifiers')}
              onChange={(classifiers) => copy.change({ classifiers })}
            />
            <CopyOption
              messageId="documents.copy.schemes"
              testId="document-copy-schemes"
              checked={current.schemes}
              disabled={!canCopySchemes(me) || !current.classifiers}
              unavailable={copy.unavailable('schemes')}
              onChange={(schemes) => copy.change({ schemes })}
            />
            <CopyOption
              messageId="documents.copy.reportViews"
              testId="document-copy-report-views"
              checked={current.reportViews}
              disabled={!current.schemes}
              unavailable={copy.unavailable('reportViews')}
              onChange={(reportViews) => copy.change({ reportViews })}
            />
          </div>
        </>
      ) : null}
    </fieldset>
  );
}

/** One copy option; a part the server cannot copy yet is greyed out with the reason as its hint. */
function CopyOption({
  messageId,
  testId,
  checked,
  disabled,
  unavailable,
  onChange,
}: {
  messageId: CopyPartMessage;
  testId: string;
  checked: boolean;
  disabled: boolean;
  unavailable: boolean;
  onChange: (checked: boolean) => void;
}) {
  const intl = useIntl();
  return (
    <CheckboxField
      checked={checked && !unavailable}
      disabled={disabled || unavailable}
      title={unavailable ? intl.formatMessage({ id: 'documents.copy.partUnavailable' }) : undefined}
      onChange={onChange}
      testId={testId}
    >
      <FormattedMessage id={messageId} />
    </CheckboxField>
  );
}
