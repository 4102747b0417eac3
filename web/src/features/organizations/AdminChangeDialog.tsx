import type { Me, Organization } from '@eelarve/shared';
import { FormattedMessage } from 'react-intl';
import { useNavigate } from 'react-router';
import { Alert } from '../../components/Alert';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useCurrentUser } from '../../app/session';
import { useAdminChange } from './api';

export interface AdminChange {
  kind: 'set' | 'remove';
  organization: Organization;
}

/** Removing the administrator occupation the session is using ends the session (spec 1, section 4). */
export function removesOwnSession(me: Me, change: AdminChange): boolean {
  if (change.kind !== 'remove') return false;
  const current = me.occupations.find((occupation) => occupation.id === me.occupationId);
  return current?.type === 'ADMIN' && current.organizationId === change.organization.id;
}

/**
 * Confirms making or removing the signed-in user as the organisation's administrator. The answer
 * is the new `me`, which replaces the current user; removing one's own (current) administrator
 * occupation warns first and then sends the user to /login.
 */
export function AdminChangeDialog({ change, onClose }: { change: AdminChange; onClose: () => void }) {
  const me = useCurrentUser();
  const navigate = useNavigate();
  const own = removesOwnSession(me, change);

  // The session's occupation gone means the session has ended: the user logs in anew.
  const mutation = useAdminChange(
    { kind: change.kind, organizationId: change.organization.id, endsSession: own },
    { onChanged: onClose, onSessionEnded: () => navigate('/login', { replace: true }) },
  );

  const name = change.organization.name;
  return (
    <ConfirmDialog
      testId="organization-admin-dialog"
      danger={change.kind === 'remove'}
      title={<FormattedMessage id={change.kind === 'set' ? 'organizations.setAdmin.title' : 'organizations.removeAdmin.title'} />}
      message={<FormattedMessage id={change.kind === 'set' ? 'organizations.setAdmin.question' : 'organizations.removeAdmin.question'} values={{ name }} />}
      confirmLabel={<FormattedMessage id={change.kind === 'set' ? 'organizations.setAdmin.confirm' : 'organizations.removeAdmin.confirm'} />}
      busy={mutation.isPending}
      onCancel={onClose}
      onConfirm={() => mutation.mutate()}
      error={
        <>
          {own ? (
            <Alert kind="warning" title={<FormattedMessage id="organizations.removeAdmin.ownWarningTitle" />} testId="organization-admin-own-warning">
              <FormattedMessage id="organizations.removeAdmin.ownWarning" />
            </Alert>
          ) : null}
          {mutation.isError ? (
            <ErrorAlert
              error={mutation.error}
              title={<FormattedMessage id={change.kind === 'set' ? 'organizations.setAdmin.failed' : 'organizations.removeAdmin.failed'} />}
              testId="organization-admin-error"
            />
          ) : null}
        </>
      }
    />
  );
}
