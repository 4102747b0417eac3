import type { Me, ResourceStatusRuleType } from '@eelarve/shared';
import { FormattedMessage, type IntlShape, useIntl } from 'react-intl';
import { Alert } from '../Alert';
import { LockIcon } from '../icons';
import { resourceStatusName } from '../ResourceStatusSelect';
import { LOCKING_RULES, type LockingStatus, lockingStatus, rulesInForce, type StatusPermissions, type StatusSources } from './status-lock';
import './status-lock.css';

/** The status's name in the UI language (else the organisation's). */
function statusName(intl: IntlShape, me: Me, locking: LockingStatus): string {
  return resourceStatusName(locking.status, intl.locale, me.organizationLocaleSettings?.language);
}

/**
 * Why an action is greyed out by a status, naming the status that refuses it (the generic
 * message when the status is not one of the organisation's on `me`); undefined when no rule in
 * force refuses it.
 */
export function statusLockReason(
  intl: IntlShape,
  me: Me,
  permissions: StatusPermissions,
  sources: StatusSources,
  refusingRules: readonly ResourceStatusRuleType[],
): string | undefined {
  const inForce = rulesInForce(permissions, refusingRules);
  if (inForce.length === 0) return undefined;
  const locking = lockingStatus(me, sources, inForce);
  if (!locking) return intl.formatMessage({ id: 'error.ACTION_DISALLOWED_DUE_TO_STATUS' });
  const id = locking.source === 'document' && sources.budget !== undefined ? 'statusLock.action.document' : 'statusLock.action';
  return intl.formatMessage({ id }, { status: statusName(intl, me, locking) });
}

/** A lock and the status's name beside a title, when its data or settings cannot change. */
export function StatusLockBadge({ me, permissions, sources, testId }: { me: Me; permissions: StatusPermissions; sources: StatusSources; testId: string }) {
  const intl = useIntl();
  const inForce = rulesInForce(permissions, LOCKING_RULES);
  if (inForce.length === 0) return null;
  const locking = lockingStatus(me, sources, inForce);
  const name = locking ? statusName(intl, me, locking) : intl.formatMessage({ id: 'statusLock.locked' });
  const title = locking
    ? intl.formatMessage(
        { id: locking.source === 'document' && sources.budget !== undefined ? 'statusLock.badgeTitle.document' : 'statusLock.badgeTitle' },
        { status: name },
      )
    : name;
  return (
    <span className="badge status-lock-badge" title={title} data-testid={testId} data-status-id={locking?.status.id}>
      <LockIcon />
      <span className="visually-hidden">{title}</span>
      <span aria-hidden="true" data-testid={`${testId}-name`}>
        {name}
      </span>
    </span>
  );
}

/**
 * The explanation above a settings form that a status has made read-only: which status locks it
 * and whether the reader may still change the status (spec 2, sections 5 and 6).
 */
export function StatusLockNotice({
  me,
  resource,
  sources,
  statusEditable,
  testId,
}: {
  me: Me;
  resource: 'budget' | 'document';
  sources: StatusSources;
  statusEditable: boolean;
  testId: string;
}) {
  const intl = useIntl();
  const locking = lockingStatus(me, sources, ['METADATA_WRITE_DISABLED']);
  const status = locking ? statusName(intl, me, locking) : '';
  const explanation = !locking
    ? 'statusLock.settings'
    : resource === 'document'
      ? 'statusLock.documentSettings'
      : locking.source === 'document'
        ? 'statusLock.budgetSettings.document'
        : 'statusLock.budgetSettings';
  return (
    <Alert kind="info" title={<FormattedMessage id="statusLock.locked" />} testId={testId}>
      <span data-status-id={locking?.status.id}>
        <FormattedMessage id={explanation} values={{ status }} />{' '}
        <FormattedMessage id={statusEditable ? 'statusLock.statusOnly' : 'statusLock.askStatusAdmin'} />
      </span>
    </Alert>
  );
}
