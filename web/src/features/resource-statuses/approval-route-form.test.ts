import { type ApprovalRoute, DEFAULT_RESOURCE_STATUSES, defaultApprovalRoute } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { routePayloadOf, routeServerErrors, routeValuesOf, validateRoute } from './approval-route-form';

const financeRole = '66666666-6666-4666-8666-666666666666';
const deletedRole = '77777777-7777-4777-8777-777777777777';
const deletedStatus = '88888888-8888-4888-8888-888888888888';
const statusIds = DEFAULT_RESOURCE_STATUSES.map((status) => status.id);
const [, submitted, approved] = statusIds as [string, string, string];
const choices = { roleIds: [financeRole], statusIds };

const financeRoute: ApprovalRoute = {
  rules: {
    SUBMIT: { allowedPrivileges: [], allowedRoleIds: [] },
    APPROVE: { allowedPrivileges: [], allowedRoleIds: [financeRole] },
    SEND_BACK: { allowedPrivileges: [], allowedRoleIds: [financeRole, deletedRole] },
    REOPEN: { allowedPrivileges: ['STATUS_ADMIN'], allowedRoleIds: [] },
  },
  stepStatuses: { SUBMITTED: submitted, APPROVED: approved, SENT_BACK: deletedStatus },
  approverMustDifferFromSubmitter: false,
};

describe('the approval route form', () => {
  it('shows each rule as its one kind of allowance, and sends the route back unchanged', () => {
    const values = routeValuesOf(defaultApprovalRoute(true), choices);
    expect(values.rules.SUBMIT.kind).toBe('anyone');
    expect(values.rules.APPROVE).toEqual({ kind: 'privileges', privileges: ['STATUS_ADMIN'], roles: [] });
    expect(values.fourEyes).toBe(true);
    expect(validateRoute(values).data).toEqual(defaultApprovalRoute(true));
  });

  it('sends only the chosen kind: roles chosen earlier are dropped when privileges are chosen', () => {
    const values = routeValuesOf(financeRoute, choices);
    values.rules.APPROVE = { ...values.rules.APPROVE, kind: 'privileges', privileges: ['STATUS_ADMIN'] };
    expect(routePayloadOf(values).rules.APPROVE).toEqual({ allowedPrivileges: ['STATUS_ADMIN'], allowedRoleIds: [] });
  });

  it('drops a deleted role and a deleted status instead of showing or sending them', () => {
    const values = routeValuesOf(financeRoute, choices);
    expect(values.rules.SEND_BACK.roles).toEqual([financeRole]);
    expect(values.stepStatuses).toEqual({ DRAFT: '', SUBMITTED: submitted, SENT_BACK: '', APPROVED: approved });
    expect(routePayloadOf(values).stepStatuses).toEqual({ SUBMITTED: submitted, APPROVED: approved });
  });

  it('requires a chosen kind to name someone, so an emptied rule never opens the action to everyone', () => {
    const values = routeValuesOf(
      { ...financeRoute, rules: { ...financeRoute.rules, APPROVE: { allowedPrivileges: [], allowedRoleIds: [deletedRole] } } },
      choices,
    );
    expect(values.rules.APPROVE).toEqual({ kind: 'roles', privileges: [], roles: [] });
    const { data, errors } = validateRoute(values);
    expect(data).toBeNull();
    expect(errors).toEqual({ 'rules.APPROVE': { message: 'validation.required' } });
  });

  it('puts the server’s refusal under the action or step it names, as the translated code', () => {
    const roleError = new ApiError(422, 'INVALID_USER_OR_ROLE', 'only default-type roles', [
      { path: 'body.rules.APPROVE.allowedRoleIds', message: 'only default-type roles' },
    ]);
    expect(routeServerErrors(roleError)).toEqual({ 'rules.APPROVE': { message: 'error.INVALID_USER_OR_ROLE' } });
    const statusError = new ApiError(404, 'RESOURCE_STATUS_NOT_FOUND', 'no such status', [{ path: 'body.stepStatuses.SENT_BACK', message: 'no such status' }]);
    expect(routeServerErrors(statusError)).toEqual({ 'stepStatuses.SENT_BACK': { message: 'error.RESOURCE_STATUS_NOT_FOUND' } });
    const schemaError = new ApiError(400, 'SCHEMA_VALIDATION_ERROR', 'invalid', [
      { path: 'body.rules.REOPEN.allowedPrivileges.0', message: 'validation.allowedValues' },
    ]);
    expect(routeServerErrors(schemaError)).toEqual({ 'rules.REOPEN': { message: 'validation.allowedValues' } });
  });
});
