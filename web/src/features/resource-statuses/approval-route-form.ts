import {
  APPROVAL_ACTIONS,
  APPROVAL_STEPS,
  type ApprovalAction,
  type ApprovalRoute,
  type ApprovalRouteInput,
  type ApprovalStep,
  approvalRouteSchema,
} from '@eelarve/shared';
import { isApiError } from '../../api/errors';
import { type FieldErrors, messageOf, serverFieldErrors, validate } from '../../components/form';

/** Who may take an action: whoever may update the budget, holders of privileges, or holders of roles (never both). */
export type AllowanceKind = 'anyone' | 'privileges' | 'roles';

export interface ActionRuleValues {
  kind: AllowanceKind;
  privileges: string[];
  roles: string[];
}

export interface RouteValues {
  rules: Record<ApprovalAction, ActionRuleValues>;
  /** The status each step sets; '' leaves the budget's status as it is. */
  stepStatuses: Record<ApprovalStep, string>;
  fourEyes: boolean;
}

/** What the form may offer: the organisation's default-type roles and its statuses. */
export interface RouteChoices {
  roleIds: readonly string[];
  statusIds: readonly string[];
}

function actionValuesOf(rule: ApprovalRoute['rules'][ApprovalAction], choices: RouteChoices): ActionRuleValues {
  const kind: AllowanceKind = rule.allowedPrivileges.length > 0 ? 'privileges' : rule.allowedRoleIds.length > 0 ? 'roles' : 'anyone';
  // A role deleted since the route was stored matches nobody: it is not offered again, so an emptied
  // role rule asks for a choice instead of silently opening the action to everyone.
  return { kind, privileges: [...rule.allowedPrivileges], roles: rule.allowedRoleIds.filter((roleId) => choices.roleIds.includes(roleId)) };
}

/** The form's values of a route; a status that no longer exists shows as "leave the status as it is". */
export function routeValuesOf(route: ApprovalRoute, choices: RouteChoices): RouteValues {
  const rules = Object.fromEntries(APPROVAL_ACTIONS.map((action) => [action, actionValuesOf(route.rules[action], choices)])) as RouteValues['rules'];
  const stepStatuses = Object.fromEntries(
    APPROVAL_STEPS.map((step) => {
      const statusId = route.stepStatuses[step];
      return [step, statusId && choices.statusIds.includes(statusId) ? statusId : ''];
    }),
  ) as RouteValues['stepStatuses'];
  return { rules, stepStatuses, fourEyes: route.approverMustDifferFromSubmitter };
}

/** The body sent: each rule with the one kind chosen, only the steps that set a status. */
export function routePayloadOf(values: RouteValues): ApprovalRouteInput {
  const rules = Object.fromEntries(
    APPROVAL_ACTIONS.map((action) => {
      const rule = values.rules[action];
      return [action, { allowedPrivileges: rule.kind === 'privileges' ? rule.privileges : [], allowedRoleIds: rule.kind === 'roles' ? rule.roles : [] }];
    }),
  ) as ApprovalRouteInput['rules'];
  const stepStatuses = Object.fromEntries(APPROVAL_STEPS.filter((step) => values.stepStatuses[step] !== '').map((step) => [step, values.stepStatuses[step]]));
  return { rules, stepStatuses, approverMustDifferFromSubmitter: values.fourEyes };
}

/** The form's key of a field path: a rule's messages (`rules.APPROVE.allowedRoleIds`) show under its action. */
export function routeFieldKey(key: string): string {
  return key.startsWith('rules.') ? key.split('.').slice(0, 2).join('.') : key;
}

const byRouteKey = (errors: FieldErrors): FieldErrors => Object.fromEntries(Object.entries(errors).map(([key, message]) => [routeFieldKey(key), message]));

/** The checks before sending: the contract, and a chosen kind of allowance that names someone. */
export function validateRoute(values: RouteValues): { data: ApprovalRouteInput | null; errors: FieldErrors } {
  const payload = routePayloadOf(values);
  const checked = validate(approvalRouteSchema, payload);
  const errors = byRouteKey(checked.errors);
  for (const action of APPROVAL_ACTIONS) {
    const rule = values.rules[action];
    if (rule.kind !== 'anyone' && rule[rule.kind].length === 0) errors[`rules.${action}`] = messageOf('validation.required');
  }
  return { data: checked.data !== null && Object.keys(errors).length === 0 ? payload : null, errors };
}

/**
 * The server's refusal under the field it names: a rule mixing allowances or naming an unsuitable
 * role, a step status the organisation does not have, as the translated error code.
 */
export function routeServerErrors(error: unknown): FieldErrors {
  const errors = byRouteKey(serverFieldErrors(error));
  if (!isApiError(error) || error.code === 'SCHEMA_VALIDATION_ERROR') return errors;
  return Object.fromEntries(Object.keys(errors).map((key) => [key, { message: `error.${error.code}` }]));
}
