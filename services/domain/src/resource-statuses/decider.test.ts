import { DEFAULT_RESOURCE_STATUSES } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { expectDomainError, givenFor } from '../testing';
import { type ResourceStatusCommand, type ResourceStatusEditFacts, type ResourceStatusState, resourceStatusDecider, resourceStatusStream } from './decider';
import type { ResourceStatusContent, ResourceStatusEvent } from './events';

const organizationId = '0b9f6a52-9d0f-4f4e-8a43-2f3c4a5b6c01';
const statusId = '0b9f6a52-9d0f-4f4e-8a43-2f3c4a5b6c02';
const roleId = '0b9f6a52-9d0f-4f4e-8a43-2f3c4a5b6c03';
const approved = DEFAULT_RESOURCE_STATUSES[2]!;
const facts: ResourceStatusEditFacts = { editingAllowed: true, language: 'et', defaultRoleIds: [roleId] };
const content: ResourceStatusContent = {
  name: { et: 'Ülevaatusel', en: '' },
  description: { et: 'Osakond vaatab üle', en: '' },
  icon: 'flag',
  rules: [{ type: 'RESOURCE_WRITE_DISABLED', overridePrivileges: [], overrideRoles: [roleId] }],
};
const created: ResourceStatusEvent = { type: 'ResourceStatusCreated', data: { statusId, organizationId, ...content, createdAt: '2026-11-25T10:00:00.000Z' } };

const given = givenFor<ResourceStatusCommand, ResourceStatusEvent, ResourceStatusState>(resourceStatusDecider);
const update = (id: string, changes: Partial<ResourceStatusContent>, withFacts = facts): ResourceStatusCommand => ({
  type: 'UpdateResourceStatus',
  statusId: id,
  organizationId,
  content: { ...content, ...changes },
  facts: withFacts,
});

describe('resource status decider', () => {
  it('creates an own status, named in the organisation language', () => {
    const events = given([]).when({ type: 'CreateResourceStatus', statusId, organizationId, content, facts, now: new Date('2026-11-25T10:00:00Z') })();
    expect(events).toEqual([created]);
  });

  it('keeps a default status per organisation in a stream of its own, an own status in its own', () => {
    expect(resourceStatusStream(organizationId, approved.id)).toBe(`resource-status-${organizationId}-${approved.id}`);
    expect(resourceStatusStream(organizationId, statusId)).toBe(`resource-status-${statusId}`);
  });

  it('refuses every edit when the organisation does not allow status editing', () => {
    const closed = { ...facts, editingAllowed: false };
    expectDomainError(
      given([]).when({ type: 'CreateResourceStatus', statusId, organizationId, content, facts: closed, now: new Date() }),
      'RESOURCE_STATUS_EDITING_DISABLED',
    );
    expectDomainError(given([created]).when(update(statusId, {}, closed)), 'RESOURCE_STATUS_EDITING_DISABLED');
    expectDomainError(
      given([created]).when({ type: 'DeleteResourceStatus', statusId, organizationId, editingAllowed: false }),
      'RESOURCE_STATUS_EDITING_DISABLED',
    );
    expectDomainError(
      given([]).when({ type: 'ResetResourceStatus', statusId: approved.id, organizationId, editingAllowed: false }),
      'RESOURCE_STATUS_EDITING_DISABLED',
    );
  });

  it('requires name and description in the organisation language', () => {
    const run = given([]).when({ type: 'CreateResourceStatus', statusId, organizationId, content, facts: { ...facts, language: 'en' }, now: new Date() });
    expect(run).toThrowError(
      expect.objectContaining({
        code: 'SCHEMA_VALIDATION_ERROR',
        details: [
          { field: 'name.en', message: 'validation.required' },
          { field: 'description.en', message: 'validation.required' },
        ],
      }),
    );
  });

  it('refuses a rule overriding both privileges and roles, and roles that are not default roles of the organisation', () => {
    const mixed = [{ type: 'READ_DISABLED' as const, overridePrivileges: ['STATUS_ADMIN' as const], overrideRoles: [roleId] }];
    expectDomainError(given([created]).when(update(statusId, { rules: mixed })), 'RESOURCE_STATUS_RULE_MIXES_OVERRIDES');
    const foreign = [{ type: 'READ_DISABLED' as const, overridePrivileges: [], overrideRoles: [organizationId] }];
    expectDomainError(given([created]).when(update(statusId, { rules: foreign })), 'INVALID_USER_OR_ROLE');
  });

  it('refuses two rules of one type', () => {
    const twice = [content.rules[0]!, { type: 'RESOURCE_WRITE_DISABLED' as const, overridePrivileges: [], overrideRoles: [] }];
    expect(given([created]).when(update(statusId, { rules: twice }))).toThrowError(
      expect.objectContaining({ code: 'SCHEMA_VALIDATION_ERROR', details: [{ field: 'rules.1.type', message: 'validation.invalid' }] }),
    );
  });

  it('updates an own status, and records nothing when nothing changes', () => {
    const events = given([created]).when(update(statusId, { icon: 'star', rules: [] }))();
    expect(events).toEqual([{ type: 'ResourceStatusUpdated', data: { statusId, organizationId, ...content, icon: 'star', rules: [], readOnly: false } }]);
    expect(given([created]).when(update(statusId, {}))()).toEqual([]);
  });

  it('answers not found for an unknown or deleted status', () => {
    expectDomainError(given([]).when(update(statusId, {})), 'RESOURCE_STATUS_NOT_FOUND');
    const deleted: ResourceStatusEvent = { type: 'ResourceStatusDeleted', data: { statusId, organizationId } };
    expectDomainError(
      given([created, deleted]).when({ type: 'DeleteResourceStatus', statusId, organizationId, editingAllowed: true }),
      'RESOURCE_STATUS_NOT_FOUND',
    );
  });

  it('refuses deleting a status that documents or budgets still carry', () => {
    expectDomainError(
      given([created]).when({ type: 'DeleteResourceStatus', statusId, organizationId, editingAllowed: true, usedBy: 2 }),
      'RESOURCE_STATUS_IN_USE',
    );
    expect(given([created]).when({ type: 'DeleteResourceStatus', statusId, organizationId, editingAllowed: true, usedBy: 0 })()).toEqual([
      { type: 'ResourceStatusDeleted', data: { statusId, organizationId } },
    ]);
  });

  it('renames a default status but keeps its rules; changing them or deleting it is refused', () => {
    const renamed = given([]).when(update(approved.id, { rules: approved.rules }))();
    expect(renamed).toEqual([
      { type: 'ResourceStatusUpdated', data: { statusId: approved.id, organizationId, ...content, rules: approved.rules, readOnly: true } },
    ]);
    expectDomainError(given([]).when(update(approved.id, { rules: [] })), 'RESOURCE_STATUS_READ_ONLY');
    expectDomainError(
      given([]).when({ type: 'DeleteResourceStatus', statusId: approved.id, organizationId, editingAllowed: true }),
      'RESOURCE_STATUS_READ_ONLY',
    );
  });

  it('resets a renamed default status to the default with the same rules; refused when equal or for an own status', () => {
    const renamed = given([]).when(update(approved.id, { rules: approved.rules }))();
    const events = given(renamed).when({ type: 'ResetResourceStatus', statusId: approved.id, organizationId, editingAllowed: true })();
    const { name, description, icon, rules } = approved;
    expect(events).toEqual([
      { type: 'ResourceStatusUpdated', data: { statusId: approved.id, organizationId, name, description, icon, rules, readOnly: true } },
    ]);
    expectDomainError(
      given([...renamed, ...events]).when({ type: 'ResetResourceStatus', statusId: approved.id, organizationId, editingAllowed: true }),
      'RESOURCE_STATUS_ALREADY_DEFAULT',
    );
    expectDomainError(given([created]).when({ type: 'ResetResourceStatus', statusId, organizationId, editingAllowed: true }), 'RESOURCE_STATUS_HAS_NO_DEFAULT');
  });

  it('deletes an own status', () => {
    expect(given([created]).when({ type: 'DeleteResourceStatus', statusId, organizationId, editingAllowed: true })()).toEqual([
      { type: 'ResourceStatusDeleted', data: { statusId, organizationId } },
    ]);
  });

  it('removes a deleted role from the rules, and does nothing where the role is not used', () => {
    const events = given([created]).when({ type: 'RemoveRoleFromResourceStatus', statusId, organizationId, roleId })();
    expect(events).toEqual([
      {
        type: 'ResourceStatusRoleRemoved',
        data: { statusId, organizationId, roleId, rules: [{ type: 'RESOURCE_WRITE_DISABLED', overridePrivileges: [], overrideRoles: [] }] },
      },
    ]);
    expect(given([created, ...events]).when({ type: 'RemoveRoleFromResourceStatus', statusId, organizationId, roleId })()).toEqual([]);
  });
});
