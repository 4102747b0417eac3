import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Alert } from '../../components/Alert';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { AuthTypeIcon } from '../../components/icons';
import { useCurrentUser } from '../../app/session';
import { ELECTRONIC_ID_PATHS, navigateToElectronicId } from '../../app/session/electronic-id';
import { useTemporaryFlag } from '../../components/useTemporaryFlag';
import { AccountSection, StatusBadge } from './AccountSection';
import { SAVED_MESSAGE_MS } from './EmailSection';
import { useUnbindElectronicId } from './api';

/**
 * Spec 1, section 2: binding sets a cookie and redirects to the electronic-ID provider (the page
 * comes back with ?eidBound=true); unbinding asks for confirmation.
 */
export function ElectronicIdSection() {
  const me = useCurrentUser();
  const [confirmUnbind, setConfirmUnbind] = useState(false);
  const [unbound, showUnbound, hideUnbound] = useTemporaryFlag(SAVED_MESSAGE_MS);

  const unbind = useUnbindElectronicId({
    onSuccess: () => {
      setConfirmUnbind(false);
      showUnbound();
    },
  });

  return (
    <AccountSection
      title={<FormattedMessage id="account.electronicId.title" />}
      description={<FormattedMessage id={me.hasPersonalCode ? 'account.electronicId.descriptionBound' : 'account.electronicId.description'} />}
      status={
        <StatusBadge on={me.hasPersonalCode} testId="account-eid-status">
          <FormattedMessage id={me.hasPersonalCode ? 'account.electronicId.isBound' : 'account.electronicId.isNotBound'} />
        </StatusBadge>
      }
      testId="account-eid"
    >
      {unbound ? (
        <Alert kind="success" testId="account-eid-unbound">
          <FormattedMessage id="account.electronicId.unbound" />
        </Alert>
      ) : null}
      <div className="account-actions">
        {me.hasPersonalCode ? (
          <button
            type="button"
            className="button button-danger-outline"
            onClick={() => {
              hideUnbound();
              unbind.reset();
              setConfirmUnbind(true);
            }}
            data-testid="account-eid-unbind"
          >
            <FormattedMessage id="account.electronicId.unbind" />
          </button>
        ) : (
          <button
            type="button"
            className="button electronic-id-button"
            onClick={() => navigateToElectronicId(ELECTRONIC_ID_PATHS.bind)}
            data-testid="account-eid-bind"
          >
            <AuthTypeIcon type="PASS" />
            <FormattedMessage id="account.electronicId.bind" />
          </button>
        )}
      </div>

      {confirmUnbind ? (
        <ConfirmDialog
          title={<FormattedMessage id="account.electronicId.unbindTitle" />}
          message={<FormattedMessage id="account.electronicId.unbindQuestion" />}
          confirmLabel={<FormattedMessage id="account.electronicId.unbind" />}
          danger
          busy={unbind.isPending}
          onConfirm={() => unbind.mutate()}
          onCancel={() => setConfirmUnbind(false)}
          error={unbind.isError ? <ErrorAlert error={unbind.error} testId="account-eid-unbind-error" /> : null}
          testId="account-eid-unbind-dialog"
        />
      ) : null}
    </AccountSection>
  );
}
