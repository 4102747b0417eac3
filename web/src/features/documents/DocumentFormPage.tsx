import { DOCUMENT_LIMITS, type Document, type DocumentCopyPart, type DocumentInput, documentInputSchema, LIMITS } from '@eelarve/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { Alert } from '../../components/Alert';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ForbiddenPage } from '../errors/ForbiddenPage';
import { FieldError } from '../../components/FieldError';
import { FormField, TextAreaField, TextField } from '../../components/FormField';
import { useToasts } from '../../components/Toasts';
import { useCurrentUser } from '../../app/session';
import { type FormErrors, issuesToErrors } from '../users/form';
import { canCopyClassifiers, canCopyPermissions, canCopySchemes, canUpdateOrganization, isPlatformAdmin } from '../../app/document/access';
import {
  createDocument,
  deleteDocument,
  documentKeys,
  fetchCopyParts,
  fetchDocumentClassifiers,
  fetchDocuments,
  refreshDocuments,
  updateDocument,
} from './api';
import { watchCopyTask } from './copy-task';
import { useDocument } from '../../app/document/current-document';

interface CopyState {
  enabled: boolean;
  sourceDocumentId: string;
  permissions: boolean;
  classifiers: boolean;
  schemes: boolean;
  reportViews: boolean;
}

const NO_COPY: CopyState = { enabled: false, sourceDocumentId: '', permissions: false, classifiers: false, schemes: false, reportViews: false };
const MONTHS = Array.from({ length: DOCUMENT_LIMITS.monthsPerYear }, (_, index) => index + 1);
const DURATIONS = Array.from({ length: DOCUMENT_LIMITS.durationMaxYears }, (_, index) => index + 1);

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

function DocumentForm({ document }: { document: Document | null }) {
  const me = useCurrentUser();
  const intl = useIntl();
  const organizationId = me.organizationId ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { showFailure } = useToasts();
  const formId = useId();
  const now = new Date();
  const [name, setName] = useState(document?.name ?? '');
  const [description, setDescription] = useState(document?.description ?? '');
  const [year, setYear] = useState(String(document?.period.year ?? now.getFullYear() + 1));
  const [month, setMonth] = useState(document?.period.month ?? 1);
  const [duration, setDuration] = useState(document?.period.duration ?? 1);
  const [recordAmountKey, setRecordAmountKey] = useState(document?.recordAmountKey ?? DOCUMENT_LIMITS.defaultRecordAmountKey);
  const [masterClassifierId, setMasterClassifierId] = useState(document?.masterClassifierId ?? '');
  const [allowCommenting, setAllowCommenting] = useState(document?.allowCommentingWithReadPermissions ?? false);
  const [copy, setCopy] = useState<CopyState>(NO_COPY);
  const copyParts = useQuery({ queryKey: documentKeys.copyParts(), queryFn: fetchCopyParts, enabled: copy.enabled });
  const unavailable = (part: DocumentCopyPart) => !(copyParts.data?.parts ?? []).includes(part);
  const [errors, setErrors] = useState<FormErrors>({});
  const [confirmDelete, setConfirmDelete] = useState(false);
  const platformAdmin = isPlatformAdmin(me);

  const classifiers = useQuery({
    queryKey: documentKeys.classifiers(document?.id ?? ''),
    queryFn: () => fetchDocumentClassifiers(document?.id ?? ''),
    enabled: document !== null,
  });
  const masterOptions = (classifiers.data ?? []).filter(
    (classifier) => classifier.required && classifier.groupingId === null && (!classifier.isInUseSchema || classifier.id === document?.masterClassifierId),
  );
  const sources = useQuery({ queryKey: documentKeys.list(organizationId), queryFn: () => fetchDocuments(organizationId), enabled: document === null });

  const save = useMutation({
    mutationFn: (payload: DocumentInput) => (document ? updateDocument(document.id, payload) : createDocument(organizationId, payload)),
    onSuccess: async (result) => {
      await refreshDocuments(queryClient);
      if (document) return;
      if ('taskId' in result && typeof result.taskId === 'string') void watchCopyTask(result.taskId, queryClient);
      navigate(`/document/${result.id}/budgets`);
    },
    // Spec 2, section 8: documentCreationErrorMessage / documentEditErrorMessage, the server's message as detail.
    onError: (error) => showFailure(document ? 'documents.documentEditErrorMessage' : 'documents.documentCreationErrorMessage', error),
  });

  const remove = useMutation({
    mutationFn: () => deleteDocument(document?.id ?? ''),
    onSuccess: async () => {
      setConfirmDelete(false);
      navigate('/', { replace: true });
      await refreshDocuments(queryClient);
    },
    onError: (error) => {
      setConfirmDelete(false);
      showFailure('documents.documentDeleteErrorMessage', error);
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const values: Record<string, unknown> = {
      name,
      description,
      period: { year: Number(year), month, duration },
      recordAmountKey,
    };
    if (document) values.masterClassifierId = masterClassifierId === '' ? null : masterClassifierId;
    if (platformAdmin) values.allowCommentingWithReadPermissions = allowCommenting;
    if (!document && copy.enabled) {
      const { enabled: _enabled, ...options } = copy;
      values.copy = options;
    }
    const parsed = documentInputSchema.safeParse(values);
    const found: FormErrors = parsed.success ? {} : issuesToErrors(parsed.error.issues.map((issue) => ({ ...issue, path: flatPath(issue.path) })));
    if (document && masterOptions.length > 0 && masterClassifierId === '') found.masterClassifierId = 'validation.required';
    setErrors(found);
    if (parsed.success && Object.keys(found).length === 0) save.mutate(values as DocumentInput);
  };

  const busy = save.isPending || remove.isPending;
  const field = (key: string) => `${formId}-${key}`;
  const periodLocked = document !== null && document.recordsCount > 0;

  return (
    <form id={formId} className="form document-form card" onSubmit={onSubmit} noValidate data-testid="document-form">
      {document?.copyStatus === 'INCOMPLETE' ? (
        <Alert kind="warning" title={<FormattedMessage id="documents.copy.incomplete" />} testId="document-copy-incomplete">
          <FormattedMessage id="documents.copy.incompleteMessage" />
        </Alert>
      ) : null}
      <div className="form-grid">
        <TextField id={field('name')} labelId="documents.field.name" value={name} onChange={setName} max={DOCUMENT_LIMITS.nameMax} error={errors.name} testId="document-name-input" />
        <TextField
          id={field('recordAmountKey')}
          labelId="documents.field.recordAmountKey"
          value={recordAmountKey}
          onChange={setRecordAmountKey}
          max={LIMITS.text}
          error={errors.recordAmountKey}
          testId="document-record-amount-key"
        />
      </div>
      <TextAreaField
        id={field('description')}
        labelId="documents.field.description"
        value={description}
        onChange={setDescription}
        max={LIMITS.textArea}
        error={errors.description}
        testId="document-description"
      />
      <div className="form-grid form-grid-3">
        <FormField htmlFor={field('year')} labelId="documents.field.year">
          <input
            id={field('year')}
            type="number"
            value={year}
            disabled={periodLocked}
            onChange={(event) => setYear(event.target.value)}
            data-testid="document-year"
          />
          <FieldError message={errors.period} values={{ min: 1000, max: 9999 }} />
        </FormField>
        <FormField htmlFor={field('month')} labelId="documents.field.month">
          <select id={field('month')} value={month} disabled={periodLocked} onChange={(event) => setMonth(Number(event.target.value))} data-testid="document-month">
            {MONTHS.map((value) => (
              <option key={value} value={value}>
                {intl.formatDate(new Date(2000, value - 1, 1), { month: 'long' })}
              </option>
            ))}
          </select>
        </FormField>
        <FormField htmlFor={field('duration')} labelId="documents.field.duration">
          <select
            id={field('duration')}
            value={duration}
            disabled={periodLocked}
            onChange={(event) => setDuration(Number(event.target.value))}
            data-testid="document-duration"
          >
            {DURATIONS.map((value) => (
              <option key={value} value={value}>
                {intl.formatMessage({ id: 'documents.field.years' }, { count: value })}
              </option>
            ))}
          </select>
        </FormField>
      </div>
      {document ? (
        <FormField htmlFor={field('master')} labelId="documents.field.masterClassifier">
          <select
            id={field('master')}
            value={masterClassifierId}
            onChange={(event) => setMasterClassifierId(event.target.value)}
            aria-invalid={errors.masterClassifierId ? true : undefined}
            data-testid="document-master-classifier"
          >
            <option value="">{intl.formatMessage({ id: 'common.select' })}</option>
            {masterOptions.map((classifier) => (
              <option key={classifier.id} value={classifier.id}>
                {classifier.name}
              </option>
            ))}
          </select>
          <div className="field-hint">
            <FormattedMessage id="documents.field.masterClassifierHint" />
          </div>
          <FieldError message={errors.masterClassifierId} />
        </FormField>
      ) : null}
      <label className="checkbox" title={platformAdmin ? undefined : intl.formatMessage({ id: 'documents.field.adminOnly' })}>
        <input
          type="checkbox"
          checked={allowCommenting}
          disabled={!platformAdmin}
          onChange={(event) => setAllowCommenting(event.target.checked)}
          data-testid="document-allow-commenting"
        />
        <FormattedMessage id="documents.field.allowCommenting" />
      </label>
      {document === null ? (
        <fieldset className={copy.enabled ? 'fieldset document-copy open' : 'fieldset document-copy'} data-testid="document-copy">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={copy.enabled}
              onChange={(event) => setCopy(event.target.checked ? { ...NO_COPY, enabled: true } : NO_COPY)}
              data-testid="document-copy-enabled"
            />
            <FormattedMessage id="documents.copy.enabled" />
          </label>
          {copy.enabled ? (
            <>
              <FormField htmlFor={field('source')} labelId="documents.copy.source">
                <select
                  id={field('source')}
                  value={copy.sourceDocumentId}
                  onChange={(event) => setCopy({ ...copy, sourceDocumentId: event.target.value })}
                  data-testid="document-copy-source"
                >
                  <option value="">{intl.formatMessage({ id: 'common.select' })}</option>
                  {(sources.data ?? []).map((source) => (
                    <option key={source.id} value={source.id}>
                      {source.name}
                    </option>
                  ))}
                </select>
                <FieldError message={errors['copy.sourceDocumentId']} />
              </FormField>
              <div className="choice-column">
                <CopyOption
                  messageId="documents.copy.permissions"
                  testId="document-copy-permissions"
                  checked={copy.permissions}
                  disabled={!canCopyPermissions(me)}
                  unavailable={unavailable('permissions')}
                  onChange={(checked) => setCopy({ ...copy, permissions: checked })}
                />
                <CopyOption
                  messageId="documents.copy.classifiers"
                  testId="document-copy-classifiers"
                  checked={copy.classifiers}
                  disabled={!canCopyClassifiers(me)}
                  unavailable={unavailable('classifiers')}
                  onChange={(checked) => setCopy({ ...copy, classifiers: checked, schemes: checked && copy.schemes, reportViews: checked && copy.reportViews })}
                />
                <CopyOption
                  messageId="documents.copy.schemes"
                  testId="document-copy-schemes"
                  checked={copy.schemes}
                  disabled={!canCopySchemes(me) || !copy.classifiers}
                  unavailable={unavailable('schemes')}
                  onChange={(checked) => setCopy({ ...copy, schemes: checked, reportViews: checked && copy.reportViews })}
                />
                <CopyOption
                  messageId="documents.copy.reportViews"
                  testId="document-copy-report-views"
                  checked={copy.reportViews}
                  disabled={!copy.schemes}
                  unavailable={unavailable('reportViews')}
                  onChange={(checked) => setCopy({ ...copy, reportViews: checked })}
                />
              </div>
            </>
          ) : null}
        </fieldset>
      ) : null}
      <div className="form-actions document-form-actions">
        {document ? (
          <button type="button" className="button button-danger" onClick={() => setConfirmDelete(true)} disabled={busy} data-testid="document-delete">
            <FormattedMessage id="common.delete" />
          </button>
        ) : (
          <button type="button" className="button" onClick={() => navigate(-1)} disabled={busy} data-testid="document-cancel">
            <FormattedMessage id="common.cancel" />
          </button>
        )}
        <button type="submit" className="button button-primary" disabled={busy} data-testid="document-save">
          <FormattedMessage id={document ? 'common.save' : 'documents.create.submit'} />
        </button>
      </div>
      {confirmDelete && document ? (
        <ConfirmDialog
          testId="document-delete-dialog"
          danger
          title={<FormattedMessage id="documents.delete.title" />}
          message={<FormattedMessage id="documents.delete.question" values={{ name: document.name }} />}
          confirmLabel={<FormattedMessage id="common.delete" />}
          busy={remove.isPending}
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() => remove.mutate()}
        />
      ) : null}
    </form>
  );
}

/** Issues of nested fields (period.year, copy.sourceDocumentId) are shown under their group. */
function flatPath(path: ReadonlyArray<PropertyKey>): PropertyKey[] {
  if (path[0] === 'copy' && path[1] !== undefined) return [`copy.${String(path[1])}`];
  return [...path];
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
  messageId: 'documents.copy.permissions' | 'documents.copy.classifiers' | 'documents.copy.schemes' | 'documents.copy.reportViews';
  testId: string;
  checked: boolean;
  disabled: boolean;
  unavailable: boolean;
  onChange: (checked: boolean) => void;
}) {
  const intl = useIntl();
  return (
    <label className="checkbox" title={unavailable ? intl.formatMessage({ id: 'documents.copy.partUnavailable' }) : undefined}>
      <input type="checkbox" checked={checked && !unavailable} disabled={disabled || unavailable} onChange={(event) => onChange(event.target.checked)} data-testid={testId} />
      <FormattedMessage id={messageId} />
    </label>
  );
}
