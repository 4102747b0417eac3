import { BUDGET_LIMITS, type BudgetInput, type BudgetTypeValue, budgetCreateSchema, budgetInputSchema, LIMITS } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { canCopyPermissions, isPlatformAdmin } from '../../app/document/access';
import { useDocument } from '../../app/document/current-document';
import { ErrorAlert } from '../../components/ErrorAlert';
import { ResourceStatusSelect, resourceStatusServerError, resourceStatusValue, usesResourceStatuses } from '../../components/ResourceStatusSelect';
import { type FieldErrors, Form, FormActions, TextAreaField, TextField, useFieldErrors, validate } from '../../components/form';
import { Spinner } from '../../components/Spinner';
import { useToasts } from '../../components/Toasts';
import { useCurrentUser } from '../../app/session';
import { restricts, settingsLock } from '../../components/status-lock/status-lock';
import { StatusLockNotice } from '../../components/status-lock/StatusLock';
import { useSaveBudget } from './api/mutations';
import { type BudgetView, budgetLink, budgetQuery, isAdminView } from './api/queries';
import { BudgetCopySection } from './budget-form/BudgetCopySection';
import { BudgetTypeChoice } from './budget-form/BudgetTypeChoice';
import { MonitoringSettings, type MonitoringValues } from './budget-form/MonitoringSettings';
import { formRules } from './budget-form/rules';
import { SumBudgetComponents } from './budget-form/SumBudgetComponents';
import { useBudgetCopy } from './budget-form/useBudgetCopy';
import { rememberCreatedBudget } from './recently-created';
import './budgets.css';

/** /document/{documentId}/budgets/create: blocked without write permission, a master classifier, or when the document's status locks its data (spec 2, section 2). */
export function BudgetCreatePage() {
  const document = useDocument();
  const blocked = !document.permissions.update || document.masterClassifierId === null || restricts(document.permissions, 'RESOURCE_WRITE_DISABLED');
  if (blocked) return <Navigate to={`/document/${document.id}/budgets`} replace />;
  return <BudgetForm budget={null} />;
}

/** /document/{documentId}/budget/{budgetId}/edit. */
export function BudgetEditPage() {
  const { budgetId = '' } = useParams();
  const budget = useQuery({ ...budgetQuery(budgetId), retry: undefined });
  if (budget.isPending) return <Spinner />;
  if (budget.isError) return <ErrorAlert error={budget.error} title={<FormattedMessage id="budgets.loadFailed" />} testId="budget-load-error" />;
  return <BudgetForm key={budget.data.id} budget={budget.data} />;
}

/**
 * The budget form (spec 2, sections 4 and 5): type, name, description, and per type its components,
 * import settings or copy source. A status that locks the settings (METADATA_WRITE_DISABLED) makes
 * it read-only, but for the status field of a status administrator, so that they can unlock it.
 */
function BudgetForm({ budget }: { budget: BudgetView | null }) {
  const me = useCurrentUser();
  const document = useDocument();
  const documentId = document.id;
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { showFailure } = useToasts();
  const admin = isPlatformAdmin(me);
  const adminView = budget && isAdminView(budget) ? budget : null;
  const [type, setType] = useState<BudgetTypeValue>(budget?.type ?? 'COMMON');
  const [name, setName] = useState(budget?.name ?? '');
  const [description, setDescription] = useState(budget?.description ?? '');
  const [resourceStatusId, setResourceStatusId] = useState(budget?.resourceStatusId ?? '');
  const [components, setComponents] = useState<string[]>(budget?.sumBudgetComponentIds ?? []);
  const [monitoringValues, setMonitoringValues] = useState<MonitoringValues>({
    gwUrl: adminView?.gwUrl ?? '',
    erpUrl: adminView?.erpUrl ?? '',
    syncEnabled: adminView?.syncEnabled ?? false,
  });
  const copy = useBudgetCopy(documentId);
  const { errors, setErrors } = useFieldErrors();
  const initial = searchParams.get('initial') === 'true';
  const monitoring = type === 'MONITORING';
  const copyAllowed = budget === null && (type === 'COMMON' || monitoring);
  const lock = budget ? settingsLock(me, budget.permissions) : { locked: false, statusEditable: true };
  const syncChanged = admin && adminView !== null && monitoring && monitoringValues.syncEnabled !== adminView.syncEnabled;
  // A locked form has nothing to save until the status (or the administrator's sync switch) changes.
  const lockedUnchanged = lock.locked && resourceStatusId === (budget?.resourceStatusId ?? '') && !syncChanged;

  const save = useSaveBudget(documentId, budget, {
    onSaved: (result) => {
      if (budget) return navigate(`/document/${documentId}/budgets`);
      // The new budget's row is highlighted when the budget list next shows it.
      rememberCreatedBudget(result.id);
      navigate(monitoring ? `/document/${documentId}/budget/${result.id}/edit?initial=true` : budgetLink(documentId, { id: result.id, type }));
    },
    // Spec 2, section 8: the form's own failure toast, the server's message as detail.
    // The status field's own message comes back under the field too.
    onError: (error) => {
      setErrors(resourceStatusServerError(error));
      showFailure(budget ? 'dashboard.budget.form.updateError' : 'dashboard.budget.form.createError', error);
    },
  });

  const chooseType = (next: BudgetTypeValue) => {
    setType(next);
    // Changing the type resets the copy choice (spec 2, section 4).
    copy.setCopying(false);
  };

  const onSubmit = () => {
    const status = resourceStatusValue(me, resourceStatusId);
    const values: Record<string, unknown> = { name, description, resourceStatusId: status.value };
    if (!budget) values.type = type;
    if (type === 'SUM_BUDGET') values.sumBudgetComponentIds = components;
    if (admin && monitoring && budget) {
      values.gwUrl = monitoringValues.gwUrl;
      values.erpUrl = monitoringValues.erpUrl;
    }
    if (copy.copying) values.copy = copy.options();
    const { data, errors: found } = validate(budget ? budgetInputSchema : budgetCreateSchema, values);
    const problems: FieldErrors = { ...found, ...formRules(type, components, copy.copying && copy.sourceBudgetId === '') };
    if (status.error) problems.resourceStatusId = status.error;
    setErrors(problems);
    if (!data || Object.keys(problems).length > 0) return;
    save.mutate({ payload: values as BudgetInput, sync: syncChanged ? monitoringValues.syncEnabled : undefined });
  };

  const busy = save.isPending;
  return (
    <Form className="budget-form card" onSubmit={onSubmit} testId="budget-form">
      <h2 className="section-title">
        <FormattedMessage id={budget ? 'budgets.form.editTitle' : 'budgets.form.createTitle'} />
      </h2>
      {budget && lock.locked ? (
        <StatusLockNotice
          me={me}
          resource="budget"
          sources={{ budget: budget.resourceStatusId, document: document.resourceStatusId }}
          statusEditable={lock.statusEditable}
          testId="budget-form-locked"
        />
      ) : null}
      <BudgetTypeChoice value={type} onChange={chooseType} disabled={budget !== null} />
      <TextField
        labelId="budgets.field.name"
        value={name}
        onChange={setName}
        max={BUDGET_LIMITS.nameMax}
        error={errors.name}
        disabled={lock.locked}
        testId="budget-name-input"
      />
      <TextAreaField
        labelId="budgets.field.description"
        value={description}
        onChange={setDescription}
        max={LIMITS.textArea}
        error={errors.description}
        disabled={lock.locked}
        testId="budget-description"
      />
      {usesResourceStatuses(me) ? (
        <ResourceStatusSelect
          me={me}
          value={resourceStatusId}
          onChange={setResourceStatusId}
          error={errors.resourceStatusId}
          disabled={!lock.statusEditable}
          testId="budget-resource-status"
        />
      ) : null}
      {type === 'SUM_BUDGET' ? (
        <SumBudgetComponents
          documentId={documentId}
          budgetId={budget?.id ?? null}
          value={components}
          onChange={setComponents}
          disabled={lock.locked}
          error={errors.sumBudgetComponentIds}
        />
      ) : null}
      {monitoring && budget ? (
        <MonitoringSettings budget={budget} admin={admin} locked={lock.locked} values={monitoringValues} onChange={setMonitoringValues} errors={errors} />
      ) : null}
      {copyAllowed ? (
        <BudgetCopySection
          copy={copy}
          documentId={documentId}
          organizationId={me.organizationId ?? document.organizationId}
          monitoring={monitoring}
          canCopyPermissions={canCopyPermissions(me)}
          error={errors.copy}
        />
      ) : null}
      <FormActions>
        <button type="button" className="button" onClick={() => navigate(`/document/${documentId}/budgets`)} disabled={busy} data-testid="budget-cancel">
          <FormattedMessage id={initial ? 'common.close' : 'common.cancel'} />
        </button>
        <button type="submit" className="button button-primary" disabled={busy || copy.empty || lockedUnchanged} data-testid="budget-save">
          <FormattedMessage id="common.save" />
        </button>
      </FormActions>
    </Form>
  );
}
