import { BUDGET_LIMITS, BUDGET_TYPE_VALUES, type BudgetCopyPart, type BudgetInput, type BudgetTypeValue, budgetCreateSchema, budgetInputSchema, LIMITS } from '@eelarve/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FieldError } from '../../components/FieldError';
import { FormField, TextAreaField, TextField } from '../../components/FormField';
import { Spinner } from '../../components/Spinner';
import { useToasts } from '../../components/Toasts';
import { useCurrentUser } from '../auth/hooks';
import { canCopyPermissions, isPlatformAdmin } from '../documents/access';
import { documentKeys, fetchDocuments } from '../documents/api';
import { useDocument } from '../documents/DocumentLayout';
import { type FormErrors, issuesToErrors } from '../users/form';
import {
  type BudgetView,
  budgetKeys,
  budgetLink,
  createBudget,
  fetchApiKey,
  fetchBudget,
  fetchOrganizationBudgets,
  fetchCopyParts,
  fetchCopySchemes,
  fetchHierarchy,
  isAdminView,
  setBudgetSync,
  updateBudget,
} from './api';
import { BudgetComponentsGrid } from './BudgetComponentsGrid';
import { BudgetSourceTree } from './BudgetSourceTree';
import { BudgetTypeIcon } from './BudgetsTab';
import { rememberCreatedBudget } from './recently-created';
import '../documents/documents.css';

/** /document/{documentId}/budgets/create. */
export function BudgetCreatePage() {
  const document = useDocument();
  if (!document.permissions.update || document.masterClassifierId === null) return <Navigate to={`/document/${document.id}/budgets`} replace />;
  return <BudgetForm budget={null} />;
}

/** /document/{documentId}/budget/{budgetId}/edit. */
export function BudgetEditPage() {
  const { budgetId = '' } = useParams();
  const budget = useQuery({ queryKey: budgetKeys.one(budgetId), queryFn: () => fetchBudget(budgetId) });
  if (budget.isPending) return <Spinner />;
  if (budget.isError) return <ErrorAlert error={budget.error} title={<FormattedMessage id="budgets.loadFailed" />} testId="budget-load-error" />;
  return <BudgetForm key={budget.data.id} budget={budget.data} />;
}

interface CopySchemeChoice {
  schemeId: string;
  copyPinnedPreselections: boolean;
  copySubBudgetPermissions: boolean;
  copyComments: boolean;
}

function BudgetForm({ budget }: { budget: BudgetView | null }) {
  const intl = useIntl();
  const me = useCurrentUser();
  const document = useDocument();
  const documentId = document.id;
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const { showError, showFailure } = useToasts();
  const formId = useId();
  const admin = isPlatformAdmin(me);
  const [type, setType] = useState<BudgetTypeValue>(budget?.type ?? 'COMMON');
  const [name, setName] = useState(budget?.name ?? '');
  const [description, setDescription] = useState(budget?.description ?? '');
  const [components, setComponents] = useState<string[]>(budget?.sumBudgetComponentIds ?? []);
  const adminView = budget && isAdminView(budget) ? budget : null;
  const [gwUrl, setGwUrl] = useState(adminView?.gwUrl ?? '');
  const [erpUrl, setErpUrl] = useState(adminView?.erpUrl ?? '');
  const [syncEnabled, setSyncEnabled] = useState(adminView?.syncEnabled ?? false);
  const [apiKey, setApiKey] = useState<string | null>(null);
  const [copying, setCopying] = useState(false);
  const [sourceBudgetId, setSourceBudgetId] = useState('');
  const [copyPermissions, setCopyPermissions] = useState(false);
  const [schemeChoices, setSchemeChoices] = useState<Record<string, CopySchemeChoice>>({});
  const [errors, setErrors] = useState<FormErrors>({});
  const initial = searchParams.get('initial') === 'true';

  const hierarchy = useQuery({ queryKey: budgetKeys.hierarchy(documentId), queryFn: () => fetchHierarchy(documentId), enabled: type === 'SUM_BUDGET' });
  const organizationId = me.organizationId ?? document.organizationId;
  const sources = useQuery({ queryKey: budgetKeys.organization(organizationId), queryFn: () => fetchOrganizationBudgets(organizationId), enabled: copying });
  const sourceDocuments = useQuery({ queryKey: documentKeys.list(organizationId), queryFn: () => fetchDocuments(organizationId), enabled: copying });
  // The source budget is chosen from a tree of the organisation's documents (same type family: common or monitoring).
  const sourceCandidates = useMemo(
    () => (sources.data ?? []).filter((candidate) => candidate.type === 'COMMON' || candidate.type === 'MONITORING'),
    [sources.data],
  );
  const copyParts = useQuery({ queryKey: budgetKeys.copyParts(), queryFn: fetchCopyParts, enabled: copying });
  // A part this version cannot carry out is offered greyed out with the reason (the server refuses it).
  const unavailable = (part: BudgetCopyPart) => !(copyParts.data?.parts ?? []).includes(part);
  const partTitle = (part: BudgetCopyPart) => (unavailable(part) ? intl.formatMessage({ id: 'budgets.copy.partUnavailable' }) : undefined);
  const copySchemes = useQuery({
    queryKey: budgetKeys.copySchemes(sourceBudgetId, documentId),
    queryFn: () => fetchCopySchemes(sourceBudgetId, documentId),
    enabled: copying && sourceBudgetId !== '',
  });

  // The edited budget is excluded (spec 2, section 5).
  const componentOptions = useMemo(() => (hierarchy.data ?? []).filter((node) => node.id !== budget?.id), [hierarchy.data, budget?.id]);
  const copyAllowed = budget === null && (type === 'COMMON' || type === 'MONITORING');
  const monitoring = type === 'MONITORING';

  const save = useMutation({
    mutationFn: async (payload: BudgetInput) => {
      if (!budget) return createBudget(documentId, payload);
      const result = await updateBudget(budget.id, payload);
      if (admin && adminView && monitoring && syncEnabled !== adminView.syncEnabled) await setBudgetSync(budget.id, syncEnabled);
      return result;
    },
    onSuccess: async (result) => {
      // The new budget's row is highlighted when the budget list next shows it.
      if (!budget) rememberCreatedBudget(result.id);
      await queryClient.invalidateQueries({ queryKey: budgetKeys.all });
      if (budget) {
        navigate(`/document/${documentId}/budgets`);
      } else if (type === 'MONITORING') {
        navigate(`/document/${documentId}/budget/${result.id}/edit?initial=true`);
      } else {
        navigate(budgetLink(documentId, { id: result.id, type }));
      }
    },
    // Spec 2, section 8: the form's own failure toast, the server's message as detail.
    onError: (error) => showFailure(budget ? 'dashboard.budget.form.updateError' : 'dashboard.budget.form.createError', error),
  });

  const revealKey = useMutation({
    mutationFn: () => fetchApiKey(budget?.id ?? ''),
    onSuccess: (result) => setApiKey(result.apiKey),
    onError: (error) => showError(error),
  });

  const chooseType = (next: BudgetTypeValue) => {
    setType(next);
    // Changing the type resets the copy choice (spec 2, section 4).
    setCopying(false);
    setSourceBudgetId('');
    setSchemeChoices({});
  };

  const copyOptions = () => {
    const schemes = (copySchemes.data ?? []).map((scheme) => schemeChoices[scheme.schemeId] ?? { schemeId: scheme.schemeId, copyPinnedPreselections: false, copySubBudgetPermissions: false, copyComments: false });
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
  const copyEmpty = copying && !copyOptions().copyPermissions && copyOptions().schemes.length === 0;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const values: Record<string, unknown> = { name, description };
    if (!budget) values.type = type;
    if (type === 'SUM_BUDGET') values.sumBudgetComponentIds = components;
    if (admin && monitoring && budget) {
      values.gwUrl = gwUrl;
      values.erpUrl = erpUrl;
    }
    if (copying) values.copy = copyOptions();
    const parsed = (budget ? budgetInputSchema : budgetCreateSchema).safeParse(values);
    const found: FormErrors = parsed.success ? {} : issuesToErrors(parsed.error.issues);
    if (type === 'SUM_BUDGET' && components.length === 0) found.sumBudgetComponentIds = 'validation.required';
    if (copying && sourceBudgetId === '') found.copy = 'validation.required';
    setErrors(found);
    if (parsed.success && Object.keys(found).length === 0) save.mutate(values as BudgetInput);
  };

  const busy = save.isPending;
  const field = (key: string) => `${formId}-${key}`;
  const setSchemeChoice = (schemeId: string, change: Partial<CopySchemeChoice>) =>
    setSchemeChoices((current) => ({
      ...current,
      [schemeId]: { ...(current[schemeId] ?? { schemeId, copyPinnedPreselections: false, copySubBudgetPermissions: false, copyComments: false }), ...change },
    }));

  return (
    <form id={formId} className="form budget-form card" onSubmit={onSubmit} noValidate data-testid="budget-form">
      <h2 className="section-title">
        <FormattedMessage id={budget ? 'budgets.form.editTitle' : 'budgets.form.createTitle'} />
      </h2>
      <fieldset className="fieldset">
        <legend>
          <FormattedMessage id="budgets.field.type" />
        </legend>
        <div className="budget-type-choices" role="radiogroup">
          {BUDGET_TYPE_VALUES.map((value) => (
            <label key={value} className={type === value ? 'budget-type-choice selected' : 'budget-type-choice'}>
              <input
                type="radio"
                name={field('type')}
                value={value}
                checked={type === value}
                disabled={budget !== null}
                onChange={() => chooseType(value)}
                data-testid={`budget-type-${value}`}
              />
              <BudgetTypeIcon type={value} />
              <span>
                <FormattedMessage id={`budgets.type.${value}`} />
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <TextField id={field('name')} labelId="budgets.field.name" value={name} onChange={setName} max={BUDGET_LIMITS.nameMax} error={errors.name} testId="budget-name-input" />
      <TextAreaField
        id={field('description')}
        labelId="budgets.field.description"
        value={description}
        onChange={setDescription}
        max={LIMITS.textArea}
        error={errors.description}
        testId="budget-description"
      />

      {type === 'SUM_BUDGET' ? (
        <fieldset className="fieldset" data-testid="budget-components">
          <legend>
            <FormattedMessage id="budgets.field.components" />
          </legend>
          {hierarchy.isPending ? <Spinner /> : null}
          {hierarchy.isSuccess && componentOptions.length === 0 ? (
            <p className="muted">
              <FormattedMessage id="budgets.field.componentsEmpty" />
            </p>
          ) : null}
          {hierarchy.isError ? <ErrorAlert error={hierarchy.error} title={<FormattedMessage id="budgets.loadFailed" />} testId="budget-components-error" /> : null}
          {hierarchy.isSuccess && componentOptions.length > 0 ? (
            <BudgetComponentsGrid nodes={componentOptions} hierarchy={hierarchy.data} value={components} onChange={setComponents} />
          ) : null}
          <FieldError message={errors.sumBudgetComponentIds} />
        </fieldset>
      ) : null}

      {monitoring && budget ? (
        <fieldset className="fieldset" data-testid="budget-monitoring">
          <legend>
            <FormattedMessage id="budgets.monitoring.title" />
          </legend>
          <FormField htmlFor={field('apiUrl')} labelId="budgets.monitoring.apiUrl">
            <input id={field('apiUrl')} type="text" value={budget.apiUrl ?? ''} readOnly data-testid="budget-api-url" />
          </FormField>
          {admin ? (
            <>
              <div className="field">
                <span className="field-label">
                  <FormattedMessage id="budgets.monitoring.apiKey" />
                </span>
                {apiKey ? (
                  <code className="api-key" data-testid="budget-api-key">
                    {apiKey}
                  </code>
                ) : (
                  <button type="button" className="button" onClick={() => revealKey.mutate()} disabled={revealKey.isPending} data-testid="budget-api-key-reveal">
                    <FormattedMessage id="budgets.monitoring.revealKey" />
                  </button>
                )}
              </div>
              <FormField htmlFor={field('gwUrl')} labelId="budgets.monitoring.gwUrl">
                <input id={field('gwUrl')} type="text"
                  inputMode="url" value={gwUrl} maxLength={BUDGET_LIMITS.urlMax} onChange={(event) => setGwUrl(event.target.value)} data-testid="budget-gw-url" />
                <FieldError message={errors.gwUrl} values={{ max: BUDGET_LIMITS.urlMax }} />
              </FormField>
              <FormField htmlFor={field('erpUrl')} labelId="budgets.monitoring.erpUrl">
                <input id={field('erpUrl')} type="text"
                  inputMode="url" value={erpUrl} maxLength={BUDGET_LIMITS.urlMax} onChange={(event) => setErpUrl(event.target.value)} data-testid="budget-erp-url" />
                <FieldError message={errors.erpUrl} values={{ max: BUDGET_LIMITS.urlMax }} />
              </FormField>
              <label className="checkbox">
                <input type="checkbox" checked={syncEnabled} onChange={(event) => setSyncEnabled(event.target.checked)} data-testid="budget-sync" />
                <FormattedMessage id="budgets.monitoring.sync" />
              </label>
            </>
          ) : null}
        </fieldset>
      ) : null}

      {copyAllowed ? (
        <fieldset className="fieldset" data-testid="budget-copy">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={copying}
              onChange={(event) => {
                setCopying(event.target.checked);
                setSourceBudgetId('');
                setSchemeChoices({});
              }}
              data-testid="budget-copy-enabled"
            />
            <FormattedMessage id="budgets.copy.enabled" />
          </label>
          {copying ? (
            <>
              <div className="field">
                <span className="field-label" id={field('source-label')}>
                  <FormattedMessage id="budgets.copy.source" />
                </span>
                {sources.isPending || sourceDocuments.isPending ? <Spinner /> : null}
                {sources.isError || sourceDocuments.isError ? (
                  <ErrorAlert error={sources.error ?? sourceDocuments.error} title={<FormattedMessage id="budgets.loadFailed" />} testId="budget-copy-source-error" />
                ) : null}
                {sources.isSuccess && sourceDocuments.isSuccess ? (
                  <BudgetSourceTree
                    documents={sourceDocuments.data}
                    budgets={sourceCandidates}
                    currentDocumentId={documentId}
                    value={sourceBudgetId}
                    onChange={setSourceBudgetId}
                    labelledBy={field('source-label')}
                    errorId={errors.copy ? field('source-error') : undefined}
                  />
                ) : null}
                <FieldError message={errors.copy} id={field('source-error')} />
              </div>
              <label className="checkbox" title={partTitle('permissions')}>
                <input
                  type="checkbox"
                  checked={copyPermissions && !unavailable('permissions')}
                  disabled={!canCopyPermissions(me) || unavailable('permissions')}
                  onChange={(event) => setCopyPermissions(event.target.checked)}
                  data-testid="budget-copy-permissions"
                />
                <FormattedMessage id="budgets.copy.permissions" />
              </label>
              {(copySchemes.data ?? []).map((scheme) => {
                const choice = schemeChoices[scheme.schemeId];
                return (
                  <div key={scheme.schemeId} className="copy-scheme" data-testid="budget-copy-scheme">
                    <div className="copy-scheme-name">{scheme.name}</div>
                    <label className="checkbox" title={partTitle('pinnedPreselections')}>
                      <input
                        type="checkbox"
                        checked={(choice?.copyPinnedPreselections ?? false) && !unavailable('pinnedPreselections')}
                        disabled={monitoring || unavailable('pinnedPreselections')}
                        data-testid="budget-copy-pinned"
                        onChange={(event) => setSchemeChoice(scheme.schemeId, { copyPinnedPreselections: event.target.checked })}
                      />
                      <FormattedMessage id="budgets.copy.pinned" values={{ count: scheme.pinnedCount }} />
                    </label>
                    <label className="checkbox" title={partTitle('subBudgetPermissions')}>
                      <input
                        type="checkbox"
                        checked={(choice?.copySubBudgetPermissions ?? false) && !unavailable('subBudgetPermissions')}
                        disabled={!canCopyPermissions(me) || unavailable('subBudgetPermissions')}
                        data-testid="budget-copy-sub-budget-permissions"
                        onChange={(event) => setSchemeChoice(scheme.schemeId, { copySubBudgetPermissions: event.target.checked })}
                      />
                      <FormattedMessage id="budgets.copy.subBudgetPermissions" />
                    </label>
                    <label className="checkbox" title={partTitle('comments')}>
                      <input
                        type="checkbox"
                        checked={(choice?.copyComments ?? false) && !unavailable('comments')}
                        disabled={monitoring || unavailable('comments')}
                        data-testid="budget-copy-comments"
                        onChange={(event) => setSchemeChoice(scheme.schemeId, { copyComments: event.target.checked })}
                      />
                      <FormattedMessage id="budgets.copy.comments" />
                    </label>
                  </div>
                );
              })}
            </>
          ) : null}
        </fieldset>
      ) : null}

      <div className="form-actions">
        <button type="button" className="button" onClick={() => navigate(`/document/${documentId}/budgets`)} disabled={busy} data-testid="budget-cancel">
          <FormattedMessage id={initial ? 'common.close' : 'common.cancel'} />
        </button>
        <button type="submit" className="button button-primary" disabled={busy || copyEmpty} data-testid="budget-save">
          <FormattedMessage id="common.save" />
        </button>
      </div>
    </form>
  );
}
