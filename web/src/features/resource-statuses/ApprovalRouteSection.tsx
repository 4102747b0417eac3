import {
  APPROVAL_ACTIONS,
  APPROVAL_STEPS,
  type ApprovalAction,
  type OrganizationApprovalRoute,
  PRIVILEGES,
  type ResourceStatus,
  type Role,
} from '@eelarve/shared';
import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Alert } from '../../components/Alert';
import { ConfirmActionDialog } from '../../components/ConfirmAction';
import { ErrorAlert } from '../../components/ErrorAlert';
import { CheckboxField, FieldError, type FieldMessage, FieldSet, Form, FormActions, SelectField, useFieldErrors } from '../../components/form';
import { MultiSelect } from '../../components/MultiSelect';
import { resourceStatusLabel } from '../../components/ResourceStatusSelect';
import { Spinner } from '../../components/Spinner';
import type { MessageKey } from '../../i18n/messages';
import { useApprovalRoute, useResetApprovalRoute, useSaveApprovalRoute } from './api/approval-route';
import { type ActionRuleValues, type AllowanceKind, type RouteValues, routeServerErrors, routeValuesOf, validateRoute } from './approval-route-form';

const ALLOWANCE_LABELS: Record<AllowanceKind, MessageKey> = {
  anyone: 'statuses.route.allow.anyone',
  privileges: 'statuses.route.allow.privileges',
  roles: 'statuses.route.allow.roles',
};

interface SectionProps {
  organizationId: string;
  /** The organisation's roles and statuses; undefined while they load. */
  roles: readonly Role[] | undefined;
  statuses: readonly ResourceStatus[] | undefined;
  organizationLanguage: string | undefined;
  /** Why the caller may only look (no STATUS_ADMIN, or the organisation does not allow editing); null to edit. */
  viewOnly: string | null;
}

/**
 * The organisation's approval route on the statuses screen (issue 10, point 6): who may take each
 * step of a budget's route, the status each step sets and four eyes; reset back to the default route.
 */
export function ApprovalRouteSection({ organizationId, roles, statuses, organizationLanguage, viewOnly }: SectionProps) {
  const route = useApprovalRoute(organizationId);
  const reset = useResetApprovalRoute(organizationId);
  const [saved, setSaved] = useState(false);
  const ready = route.isSuccess && roles !== undefined && statuses !== undefined;

  return (
    <section className="approval-route-section" aria-labelledby="approval-route-title" data-testid="approval-route">
      <div className="page-header">
        <div className="page-heading">
          <h2 className="section-title" id="approval-route-title">
            <FormattedMessage id="statuses.route.title" />
          </h2>
          <p className="muted">
            <FormattedMessage id="statuses.route.subtitle" />
          </p>
        </div>
        {route.isSuccess ? <RouteKind route={route.data} /> : null}
      </div>
      {route.isPending || (route.isSuccess && !ready) ? <Spinner /> : null}
      {route.isError ? <ErrorAlert error={route.error} title={<FormattedMessage id="statuses.route.loadFailed" />} testId="approval-route-load-error" /> : null}
      {saved ? (
        <Alert kind="success" testId="approval-route-saved">
          <FormattedMessage id="statuses.route.saved" />
        </Alert>
      ) : null}
      {ready ? (
        <RouteForm
          // A stored change (a save, a reset) starts the form again from what the server holds.
          key={JSON.stringify(route.data)}
          organizationId={organizationId}
          current={route.data}
          roles={roles}
          statuses={statuses}
          organizationLanguage={organizationLanguage}
          viewOnly={viewOnly}
          onSaved={() => setSaved(true)}
          onEdit={() => setSaved(false)}
          onReset={() => {
            setSaved(false);
            reset.ask(route.data);
          }}
        />
      ) : null}
      <ConfirmActionDialog
        action={reset}
        testId="approval-route-reset-dialog"
        title={<FormattedMessage id="statuses.route.reset" />}
        message={() => <FormattedMessage id="statuses.route.reset.question" />}
        confirmLabel={<FormattedMessage id="statuses.reset.confirm" />}
        failedTitle={<FormattedMessage id="statuses.route.reset.failed" />}
        errorTestId="approval-route-reset-error"
      />
    </section>
  );
}

function RouteKind({ route }: { route: OrganizationApprovalRoute }) {
  return (
    <span className="chip" data-testid="approval-route-kind" data-configured={route.configured}>
      <FormattedMessage id={route.configured ? 'statuses.route.configured' : 'statuses.route.default'} />
    </span>
  );
}

interface FormProps {
  organizationId: string;
  current: OrganizationApprovalRoute;
  roles: readonly Role[];
  statuses: readonly ResourceStatus[];
  organizationLanguage: string | undefined;
  viewOnly: string | null;
  onSaved: () => void;
  onEdit: () => void;
  onReset: () => void;
}

function RouteForm({ organizationId, current, roles, statuses, organizationLanguage, viewOnly, onSaved, onEdit, onReset }: FormProps) {
  const intl = useIntl();
  const formId = useId();
  const defaultRoles = roles.filter((role) => role.type === 'DEFAULT');
  const [values, setValues] = useState<RouteValues>(() =>
    routeValuesOf(current.route, { roleIds: defaultRoles.map((role) => role.id), statusIds: statuses.map((status) => status.id) }),
  );
  const { errors, setErrors, clear } = useFieldErrors();
  const save = useSaveApprovalRoute(organizationId, { onSuccess: onSaved, onError: (error) => setErrors(routeServerErrors(error)) });
  const readOnly = viewOnly !== null;

  const change = (field: string, next: (values: RouteValues) => RouteValues) => {
    setValues(next);
    clear(field);
    onEdit();
  };
  const setRule = (action: ApprovalAction, rule: ActionRuleValues) => change(`rules.${action}`, (old) => ({ ...old, rules: { ...old.rules, [action]: rule } }));

  const onSubmit = () => {
    const { data, errors: found } = validateRoute(values);
    setErrors(found);
    if (data && !readOnly) save.mutate(data);
  };

  const statusOptions = [
    { value: '', label: intl.formatMessage({ id: 'statuses.route.keepStatus' }) },
    ...statuses.map((status) => ({ value: status.id, label: resourceStatusLabel(status, intl.locale, organizationLanguage) })),
  ];

  return (
    <Form id={formId} onSubmit={onSubmit} className="approval-route-form" testId="approval-route-form">
      {save.isError ? <ErrorAlert error={save.error} title={<FormattedMessage id="statuses.route.saveFailed" />} testId="approval-route-save-error" /> : null}
      <FieldSet legend={<FormattedMessage id="statuses.route.rules" />} testId="approval-route-rules">
        {APPROVAL_ACTIONS.map((action) => (
          <ActionRuleRow
            key={action}
            action={action}
            rule={values.rules[action]}
            onChange={(rule) => setRule(action, rule)}
            roles={defaultRoles}
            readOnly={readOnly}
            error={errors[`rules.${action}`]}
          />
        ))}
      </FieldSet>
      <FieldSet legend={<FormattedMessage id="statuses.route.stepStatuses" />} testId="approval-route-steps">
        <div className="approval-route-steps">
          {APPROVAL_STEPS.map((step) => (
            <SelectField
              key={step}
              labelId={`budgets.approval.step.${step}` as MessageKey}
              value={values.stepStatuses[step]}
              onChange={(statusId) => change(`stepStatuses.${step}`, (old) => ({ ...old, stepStatuses: { ...old.stepStatuses, [step]: statusId } }))}
              options={statusOptions}
              disabled={readOnly}
              error={errors[`stepStatuses.${step}`]}
              testId={`approval-route-step-${step}`}
            />
          ))}
        </div>
      </FieldSet>
      <CheckboxField
        checked={values.fourEyes}
        onChange={(fourEyes) => change('approverMustDifferFromSubmitter', (old) => ({ ...old, fourEyes }))}
        disabled={readOnly}
        testId="approval-route-four-eyes"
      >
        <FormattedMessage id="statuses.route.fourEyes" />
      </CheckboxField>
      <FormActions>
        <span title={viewOnly ?? (current.configured ? undefined : intl.formatMessage({ id: 'statuses.route.resetDisabled' }))}>
          <button type="button" className="button" disabled={readOnly || !current.configured} onClick={onReset} data-testid="approval-route-reset">
            <FormattedMessage id="statuses.route.reset" />
          </button>
        </span>
        <span title={viewOnly ?? undefined}>
          <button type="submit" className="button button-primary" disabled={readOnly || save.isPending} data-testid="approval-route-save">
            <FormattedMessage id="statuses.route.save" />
          </button>
        </span>
      </FormActions>
    </Form>
  );
}

function ActionRuleRow({
  action,
  rule,
  onChange,
  roles,
  readOnly,
  error,
}: {
  action: ApprovalAction;
  rule: ActionRuleValues;
  onChange: (rule: ActionRuleValues) => void;
  roles: readonly Role[];
  readOnly: boolean;
  error: FieldMessage | undefined;
}) {
  const intl = useIntl();
  const label = intl.formatMessage({ id: `budgets.approval.action.${action}` as MessageKey });
  const privilegeOptions = PRIVILEGES.map((privilege) => ({ value: privilege, label: intl.formatMessage({ id: `privilege.${privilege}` as MessageKey }) }));
  const roleOptions = roles.map((role) => ({ value: role.id, label: role.name }));
  const allowedLabel = `${label}: ${intl.formatMessage({ id: 'statuses.route.allowedBy' })}`;
  return (
    <div className="approval-route-rule" data-testid={`approval-route-rule-${action}`}>
      <span className="approval-route-action">{label}</span>
      <div className="approval-route-allowance">
        <select
          aria-label={allowedLabel}
          value={rule.kind}
          disabled={readOnly}
          onChange={(event) => onChange({ ...rule, kind: event.target.value as AllowanceKind })}
          data-testid={`approval-route-rule-${action}-kind`}
        >
          {(Object.keys(ALLOWANCE_LABELS) as AllowanceKind[]).map((kind) => (
            // Roles can be chosen only when there are default-type roles to offer.
            <option key={kind} value={kind} disabled={kind === 'roles' && roleOptions.length === 0 && rule.kind !== 'roles'}>
              {intl.formatMessage({ id: ALLOWANCE_LABELS[kind] })}
            </option>
          ))}
        </select>
        {rule.kind === 'privileges' ? (
          <MultiSelect
            options={privilegeOptions}
            value={rule.privileges}
            onChange={(privileges) => onChange({ ...rule, privileges })}
            placeholder={intl.formatMessage({ id: 'statuses.rule.choosePrivileges' })}
            label={`${label}: ${intl.formatMessage({ id: 'statuses.rule.choosePrivileges' })}`}
            disabled={readOnly}
            testId={`approval-route-rule-${action}-privileges`}
          />
        ) : null}
        {rule.kind === 'roles' ? (
          <MultiSelect
            options={roleOptions}
            value={rule.roles}
            onChange={(chosen) => onChange({ ...rule, roles: chosen })}
            placeholder={intl.formatMessage({ id: 'statuses.rule.chooseRoles' })}
            label={`${label}: ${intl.formatMessage({ id: 'statuses.rule.chooseRoles' })}`}
            disabled={readOnly}
            testId={`approval-route-rule-${action}-roles`}
          />
        ) : null}
      </div>
      <FieldError error={error} testId={`approval-route-rule-${action}-error`} />
    </div>
  );
}
