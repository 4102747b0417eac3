import { DOCUMENT_LIMITS, type Document, type DocumentInput, documentInputSchema, LIMITS } from '@eelarve/shared';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { canUpdateOrganization, isPlatformAdmin } from '../../app/document/access';
import { useDocument } from '../../app/document/current-document';
import { useCurrentUser } from '../../app/session';
import { Alert } from '../../components/Alert';
import { settingsLock } from '../../components/status-lock/status-lock';
import { StatusLockNotice, statusLockReason } from '../../components/status-lock/StatusLock';
import { ResourceStatusSelect, resourceStatusServerError, resourceStatusValue, usesResourceStatuses } from '../../components/ResourceStatusSelect';
import { CheckboxField, type FieldErrors, Form, messageOf, TextAreaField, TextField, useFieldErrors, validate } from '../../components/form';
import { useToasts } from '../../components/Toasts';
import { ForbiddenPage } from '../../app/errors/ForbiddenPage';
import { useSaveDocument } from './api/mutations';
import { watchCopyTask } from './copy-task';
import { DocumentCopyFieldset } from './document-form/DocumentCopyFieldset';
import { DocumentFormActions } from './document-form/DocumentFormActions';
import { MasterClassifierField, useMasterOptions } from './document-form/MasterClassifierField';
import { PeriodFields, type PeriodValues } from './document-form/PeriodFields';
import { useDocumentCopy } from './document-form/useDocumentCopy';
import { useQueryClient } from '@tanstack/react-query';

/** /document/create (spec 2, Document create and settings screens). */
export function DocumentCreatePage() {
  const me = useCurrentUser();
  if (!canUpdateOrganization(me)) {
    return <ForbiddenPage />;
  }
  return (
    <div className="page document-form-page" data-testid="document-create-page">
      <h1 className="page-title">
        <FormattedMessage id="documents.create.title" />
      </h1>
      <DocumentForm document={null} />
    </div>
  );
}

/** /document/{documentId}/settings. */
export function DocumentSettingsTab() {
  const document = useDocument();
  return <DocumentForm key={document.id} document={document} />;
}

/**
 * The document create and settings form (spec 2, section 5). A status that locks the document's
 * settings (METADATA_WRITE_DISABLED) makes it read-only but for the status field of a status
 * administrator; one that locks its data (RESOURCE_WRITE_DISABLED) greys out delete.
 */
function DocumentForm({ document }: { document: Document | null }) {
  const me = useCurrentUser();
  const intl = useIntl();
  const organizationId = me.organizationId ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { showFailure } = useToasts();
  const [name, setName] = useState(document?.name ?? '');
  const [description, setDescription] = useState(document?.description ?? '');
  const [period, setPeriod] = useState<PeriodValues>({
    year: String(document?.period.year ?? new Date().getFullYear() + 1),
    month: document?.period.month ?? 1,
    duration: document?.period.duration ?? 1,
  });
  const [recordAmountKey, setRecordAmountKey] = useState(document?.recordAmountKey ?? DOCUMENT_LIMITS.defaultRecordAmountKey);
  const [masterClassifierId, setMasterClassifierId] = useState(document?.masterClassifierId ?? '');
  const [allowCommenting, setAllowCommenting] = useState(document?.allowCommentingWithReadPermissions ?? false);
  const [resourceStatusId, setResourceStatusId] = useState(document?.resourceStatusId ?? '');
  const copy = useDocumentCopy();
  const { errors, setErrors } = useFieldErrors();
  const masterOptions = useMasterOptions(document);
  const platformAdmin = isPlatformAdmin(me);
  const lock = document ? settingsLock(me, document.permissions) : { locked: false, statusEditable: true };
  const statusSources = { document: document?.resourceStatusId ?? null };
  const deleteRefusal = document ? statusLockReason(intl, me, document.permissions, statusSources, ['READ_DISABLED', 'RESOURCE_WRITE_DISABLED']) : undefined;
  // A locked form has nothing to save until the status changes.
  const lockedUnchanged = lock.locked && resourceStatusId === (document?.resourceStatusId ?? '');

  const save = useSaveDocument(organizationId, document, {
    onSaved: (result) => {
      if (document) return;
      if ('taskId' in result && typeof result.taskId === 'string') void watchCopyTask(result.taskId, queryClient);
      navigate(`/document/${result.id}/budgets`);
    },
    // Spec 2, section 8: documentCreationErrorMessage / documentEditErrorMessage, the server's message as detail.
    // The status field's own message comes back under the field too.
    onError: (error) => {
      setErrors(resourceStatusServerError(error));
      showFailure(document ? 'documents.documentEditErrorMessage' : 'documents.documentCreationErrorMessage', error);
    },
  });

  const onSubmit = () => {
    const values: Record<string, unknown> = {
      name,
      description,
      period: { year: Number(period.year), month: period.month, duration: period.duration },
      recordAmountKey,
    };
    if (document) values.masterClassifierId = masterClassifierId === '' ? null : masterClassifierId;
    if (platformAdmin) values.allowCommentingWithReadPermissions = allowCommenting;
    const status = resourceStatusValue(me, resourceStatusId);
    values.resourceStatusId = status.value;
    const copyOptions = document ? undefined : copy.options();
    if (copyOptions) values.copy = copyOptions;
    const { data, errors: found } = validate(documentInputSchema, values);
    const problems: FieldErrors = { ...found };
    if (document && !lock.locked && masterOptions.length > 0 && masterClassifierId === '') problems.masterClassifierId = messageOf('validation.required');
    if (status.error) problems.resourceStatusId = status.error;
    setErrors(problems);
    if (data && Object.keys(problems).length === 0) save.mutate(values as DocumentInput);
  };

  return (
    <Form className="document-form card" onSubmit={onSubmit} testId="document-form">
      {document?.copyStatus === 'INCOMPLETE' ? (
        <Alert kind="warning" title={<FormattedMessage id="documents.copy.incomplete" />} testId="document-copy-incomplete">
          <FormattedMessage id="documents.copy.incompleteMessage" />
        </Alert>
      ) : null}
      {lock.locked ? (
        <StatusLockNotice me={me} resource="document" sources={statusSources} statusEditable={lock.statusEditable} testId="document-form-locked" />
      ) : null}
      <div className="form-grid">
        <TextField
          labelId="documents.field.name"
          value={name}
          onChange={setName}
          max={DOCUMENT_LIMITS.nameMax}
          error={errors.name}
          disabled={lock.locked}
          testId="document-name-input"
        />
        <TextField
          labelId="documents.field.recordAmountKey"
          value={recordAmountKey}
          onChange={setRecordAmountKey}
          max={LIMITS.text}
          error={errors.recordAmountKey}
          disabled={lock.locked}
          testId="document-record-amount-key"
        />
      </div>
      <TextAreaField
        labelId="documents.field.description"
        value={description}
        onChange={setDescription}
        max={LIMITS.textArea}
        error={errors.description}
        disabled={lock.locked}
        testId="document-description"
      />
      {usesResourceStatuses(me) ? (
        <ResourceStatusSelect
          me={me}
          value={resourceStatusId}
          onChange={setResourceStatusId}
          error={errors.resourceStatusId}
          disabled={!lock.statusEditable}
          testId="document-resource-status"
        />
      ) : null}
      <PeriodFields value={period} onChange={setPeriod} locked={lock.locked || (document !== null && document.recordsCount > 0)} error={periodError(errors)} />
      {document ? (
        <MasterClassifierField
          options={masterOptions}
          value={masterClassifierId}
          onChange={setMasterClassifierId}
          disabled={lock.locked}
          error={errors.masterClassifierId}
        />
      ) : null}
      <CheckboxField
        checked={allowCommenting}
        disabled={!platformAdmin || lock.locked}
        title={platformAdmin ? undefined : intl.formatMessage({ id: 'documents.field.adminOnly' })}
        onChange={setAllowCommenting}
        testId="document-allow-commenting"
      >
        <FormattedMessage id="documents.field.allowCommenting" />
      </CheckboxField>
      {document === null ? <DocumentCopyFieldset copy={copy} me={me} organizationId={organizationId} sourceError={errors['copy.sourceDocumentId']} /> : null}
      <DocumentFormActions document={document} busy={save.isPending} saveDisabled={lockedUnchanged} deleteRefusal={deleteRefusal} />
    </Form>
  );
}

/** The period's issues (year, month, duration) are shown under the year. */
function periodError(errors: FieldErrors) {
  return errors.period ?? errors['period.year'] ?? errors['period.month'] ?? errors['period.duration'];
}
