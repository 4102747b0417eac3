import {
  DomainError,
  type FieldRule,
  fieldError,
  fieldErrors,
  findDefaultResourceStatus,
  matchingDefaultResourceStatus,
  type ResourceStatusLanguage,
  type ResourceStatusRule,
  sameLabels,
  sameRules,
} from '@eelarve/shared';
import type { Decider } from '../decider';
import type { ResourceStatusContent, ResourceStatusEvent } from './events';

interface ActiveStatus {
  status: 'active';
  organizationId: string;
  content: ResourceStatusContent;
  /** A default status: rules fixed, never deleted. */
  readOnly: boolean;
}

export type ResourceStatusState = { status: 'none' } | ActiveStatus | { status: 'deleted' };

/** What the read models say about the organisation, for a create or an edit. */
export interface ResourceStatusEditFacts {
  /** The organisation allows status editing (spec 1, section 6). */
  editingAllowed: boolean;
  /** The organisation's language: the name and description must be given in it. */
  language: ResourceStatusLanguage;
  /** The organisation's default-type roles: the only roles a rule may override. */
  defaultRoleIds: readonly string[];
}

type Key = { statusId: string; organizationId: string };

export type ResourceStatusCommand =
  | (Key & { type: 'CreateResourceStatus'; content: ResourceStatusContent; facts: ResourceStatusEditFacts; now: Date })
  | (Key & { type: 'UpdateResourceStatus'; content: ResourceStatusContent; facts: ResourceStatusEditFacts })
  | (Key & { type: 'ResetResourceStatus'; editingAllowed: boolean })
  /** `usedBy`: documents and budgets that carry the status (from the read models). */
  | (Key & { type: 'DeleteResourceStatus'; editingAllowed: boolean; usedBy?: number })
  | (Key & { type: 'RemoveRoleFromResourceStatus'; roleId: string });

/**
 * An organisation's own status has its own stream; a default status (same id everywhere) has one
 * stream per organisation, holding only that organisation's edits of it.
 */
export const resourceStatusStream = (organizationId: string, statusId: string) =>
  findDefaultResourceStatus(statusId) ? `resource-status-${organizationId}-${statusId}` : `resource-status-${statusId}`;

/** The status as the organisation has it: a default status exists before any edit of it. */
function current(state: ResourceStatusState, key: Key): ActiveStatus {
  if (state.status === 'active') return state;
  const byDefault = findDefaultResourceStatus(key.statusId);
  if (state.status === 'none' && byDefault) {
    const { name, description, icon, rules } = byDefault;
    return { status: 'active', organizationId: key.organizationId, content: { name, description, icon, rules }, readOnly: true };
  }
  throw new DomainError('RESOURCE_STATUS_NOT_FOUND');
}

function assertEditingAllowed(editingAllowed: boolean): void {
  if (!editingAllowed) throw new DomainError('RESOURCE_STATUS_EDITING_DISABLED');
}

/** Name and description in the organisation's language; each rule overrides privileges or roles, never both. */
function assertValidContent(content: ResourceStatusContent, facts: ResourceStatusEditFacts): void {
  const missing: FieldRule[] = (['name', 'description'] as const)
    .filter((field) => content[field][facts.language].trim() === '')
    .map((field) => ({ field: `${field}.${facts.language}`, message: 'validation.required' }));
  if (missing.length > 0) throw fieldErrors('SCHEMA_VALIDATION_ERROR', missing);
  content.rules.forEach((rule, index) => {
    // One rule per type: two would leave unclear who is exempt.
    if (content.rules.findIndex((other) => other.type === rule.type) !== index)
      throw fieldError('SCHEMA_VALIDATION_ERROR', `rules.${index}.type`, 'validation.invalid');
    if (rule.overridePrivileges.length > 0 && rule.overrideRoles.length > 0) {
      throw fieldError('RESOURCE_STATUS_RULE_MIXES_OVERRIDES', `rules.${index}`, 'a rule overrides privileges or roles, not both');
    }
    const unsuitable = rule.overrideRoles.filter((roleId) => !facts.defaultRoleIds.includes(roleId));
    if (unsuitable.length > 0) throw fieldError('INVALID_USER_OR_ROLE', `rules.${index}.overrideRoles`, 'only default-type roles of the organisation');
  });
}

const uniqueRules = (rules: ResourceStatusRule[]): ResourceStatusRule[] =>
  rules.map((rule) => ({ type: rule.type, overridePrivileges: [...new Set(rule.overridePrivileges)], overrideRoles: [...new Set(rule.overrideRoles)] }));

const sameContent = (a: ResourceStatusContent, b: ResourceStatusContent) => sameLabels(a, b) && sameRules(a.rules, b.rules);

function create(command: Extract<ResourceStatusCommand, { type: 'CreateResourceStatus' }>, state: ResourceStatusState): ResourceStatusEvent[] {
  assertEditingAllowed(command.facts.editingAllowed);
  if (state.status !== 'none' || findDefaultResourceStatus(command.statusId)) throw new DomainError('CONCURRENT_MODIFICATION', 'status already exists');
  const content = { ...command.content, rules: uniqueRules(command.content.rules) };
  assertValidContent(content, command.facts);
  const { statusId, organizationId } = command;
  return [{ type: 'ResourceStatusCreated', data: { statusId, organizationId, ...content, createdAt: command.now.toISOString() } }];
}

function update(command: Extract<ResourceStatusCommand, { type: 'UpdateResourceStatus' }>, state: ResourceStatusState): ResourceStatusEvent[] {
  assertEditingAllowed(command.facts.editingAllowed);
  const status = current(state, command);
  const requested = { ...command.content, rules: uniqueRules(command.content.rules) };
  // A read-only status keeps its rules (spec 1, section 4); its name, description and icon may change.
  if (status.readOnly && !sameRules(requested.rules, status.content.rules)) throw new DomainError('RESOURCE_STATUS_READ_ONLY');
  const content = status.readOnly ? { ...requested, rules: status.content.rules } : requested;
  assertValidContent(content, command.facts);
  if (sameContent(content, status.content)) return [];
  const { statusId, organizationId } = command;
  return [{ type: 'ResourceStatusUpdated', data: { statusId, organizationId, ...content, readOnly: status.readOnly } }];
}

/** Name, description and icon back from the default with the same rules; refused when already equal. */
function reset(command: Extract<ResourceStatusCommand, { type: 'ResetResourceStatus' }>, state: ResourceStatusState): ResourceStatusEvent[] {
  assertEditingAllowed(command.editingAllowed);
  const status = current(state, command);
  const byRules = status.readOnly ? matchingDefaultResourceStatus(status.content.rules) : undefined;
  if (!byRules) throw new DomainError('RESOURCE_STATUS_HAS_NO_DEFAULT');
  const content: ResourceStatusContent = { name: byRules.name, description: byRules.description, icon: byRules.icon, rules: status.content.rules };
  if (sameContent(content, status.content)) throw new DomainError('RESOURCE_STATUS_ALREADY_DEFAULT');
  const { statusId, organizationId } = command;
  return [{ type: 'ResourceStatusUpdated', data: { statusId, organizationId, ...content, readOnly: true } }];
}

function remove(command: Extract<ResourceStatusCommand, { type: 'DeleteResourceStatus' }>, state: ResourceStatusState): ResourceStatusEvent[] {
  assertEditingAllowed(command.editingAllowed);
  const status = current(state, command);
  if (status.readOnly) throw new DomainError('RESOURCE_STATUS_READ_ONLY');
  // A deleted status would leave its documents and budgets unlocked under an id nobody can read.
  if ((command.usedBy ?? 0) > 0)
    throw new DomainError('RESOURCE_STATUS_IN_USE', `${command.usedBy} documents or budgets have the status`, { usedBy: command.usedBy });
  return [{ type: 'ResourceStatusDeleted', data: { statusId: command.statusId, organizationId: command.organizationId } }];
}

/** Follows a role's deletion whatever the organisation allows: a rule must not name a role that is gone. */
function removeRole(command: Extract<ResourceStatusCommand, { type: 'RemoveRoleFromResourceStatus' }>, state: ResourceStatusState): ResourceStatusEvent[] {
  if (state.status !== 'active') return [];
  if (!state.content.rules.some((rule) => rule.overrideRoles.includes(command.roleId))) return [];
  const rules = state.content.rules.map((rule) => ({ ...rule, overrideRoles: rule.overrideRoles.filter((roleId) => roleId !== command.roleId) }));
  const { statusId, organizationId, roleId } = command;
  return [{ type: 'ResourceStatusRoleRemoved', data: { statusId, organizationId, roleId, rules } }];
}

export const resourceStatusDecider: Decider<ResourceStatusCommand, ResourceStatusEvent, ResourceStatusState> = {
  streamName: (command) => resourceStatusStream(command.organizationId, command.statusId),
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'ResourceStatusCreated':
      case 'ResourceStatusUpdated': {
        const { organizationId, name, description, icon, rules } = event.data;
        const readOnly = event.type === 'ResourceStatusUpdated' && event.data.readOnly;
        return { status: 'active', organizationId, content: { name, description, icon, rules }, readOnly };
      }
      case 'ResourceStatusRoleRemoved':
        return state.status === 'active' ? { ...state, content: { ...state.content, rules: event.data.rules } } : state;
      case 'ResourceStatusDeleted':
        return { status: 'deleted' };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateResourceStatus':
        return create(command, state);
      case 'UpdateResourceStatus':
        return update(command, state);
      case 'ResetResourceStatus':
        return reset(command, state);
      case 'DeleteResourceStatus':
        return remove(command, state);
      case 'RemoveRoleFromResourceStatus':
        return removeRole(command, state);
    }
  },
};
