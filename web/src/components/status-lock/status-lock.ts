import { hasAnyPrivilege, type Me, type ResourceStatus, type ResourceStatusRuleType } from '@eelarve/shared';

/**
 * What the statuses of a document and its budget lock for the signed-in user (spec 2, sections 2,
 * 5 and 6). The server sends the rules in force for the caller as `permissions.restrictions` (their
 * exemptions already applied) and refuses what they lock with ACTION_DISALLOWED_DUE_TO_STATUS; the
 * web greys out the same actions and names the status that locks them.
 */
export interface StatusPermissions {
  read: boolean;
  update: boolean;
  restrictions: readonly ResourceStatusRuleType[];
}

export const restricts = (permissions: StatusPermissions, ...rules: ResourceStatusRuleType[]): boolean =>
  rules.some((rule) => permissions.restrictions.includes(rule));

/**
 * A status administrator (or the platform administrator) may still change the status of a
 * resource whose settings are locked, and only that, so that it can be unlocked.
 */
export const canUnlockStatus = (me: Me): boolean => hasAnyPrivilege(me.privileges, 'STATUS_ADMIN', 'IS_ADMIN');

/** How a settings form behaves under the statuses: every field read-only, the status field perhaps not. */
export interface SettingsLock {
  /** METADATA_WRITE_DISABLED is in force: the settings cannot change. */
  locked: boolean;
  /** The status field may still change (always, unless locked for someone who is no status administrator). */
  statusEditable: boolean;
}

export function settingsLock(me: Me, permissions: StatusPermissions): SettingsLock {
  const locked = restricts(permissions, 'METADATA_WRITE_DISABLED');
  return { locked, statusEditable: !locked || canUnlockStatus(me) };
}

/** The resource that carries the locking status: a budget is locked by its own status or its document's. */
export type LockSource = 'budget' | 'document';

export interface LockingStatus {
  status: ResourceStatus;
  source: LockSource;
}

/** The statuses a resource is under, the most specific first (the budget's, then its document's). */
export type StatusSources = Partial<Record<LockSource, string | null>>;

/**
 * The status that brings one of `rules` (the budget's own before its document's), from the
 * organisation's statuses on `me`; null when none of them does (or the status is unknown here).
 */
export function lockingStatus(me: Me, sources: StatusSources, rules: readonly ResourceStatusRuleType[]): LockingStatus | null {
  for (const source of ['budget', 'document'] as const) {
    const statusId = sources[source];
    if (!statusId) continue;
    const status = me.resourceStatuses.find((candidate) => candidate.id === statusId);
    if (status?.rules.some((rule) => rules.includes(rule.type))) return { status, source };
  }
  return null;
}

/** The rules that make a resource "locked" (its badge): its data or its settings cannot change. */
export const LOCKING_RULES: readonly ResourceStatusRuleType[] = ['RESOURCE_WRITE_DISABLED', 'METADATA_WRITE_DISABLED'];

/** The rules in force among `rules`: what the badge and the tooltips speak of. */
export const rulesInForce = (permissions: StatusPermissions, rules: readonly ResourceStatusRuleType[]): ResourceStatusRuleType[] =>
  rules.filter((rule) => permissions.restrictions.includes(rule));
