import type { Me } from '@eelarve/shared';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Alert } from '../../components/Alert';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Modal } from '../../components/Modal';
import { useCurrentUser, useRefreshMe } from '../../app/session';
import { upgradeSessionToMfa } from '../../components/mfa/api';
import { MfaCodeForm } from '../../components/mfa/MfaCodeForm';
import { MfaSetupPanel } from '../../components/mfa/MfaSetupPanel';
import { useTemporaryFlag } from '../../components/useTemporaryFlag';
import { AccountSection, StatusBadge } from './AccountSection';
import { SAVED_MESSAGE_MS } from './EmailSection';
import { useDisableMfa } from './api';

/** Sessions that proved more than a password: the server lets them edit or remove MFA. */
export function isStrongSession(me: Me): boolean {
  return me.authenticationType === 'LOGIN_WITH_MFA' || me.authenticationType === 'PASS';
}

type Action = 'add' | 'edit' | 'disable';
type Step = { action: Action; stage: 'code' | 'setup' | 'confirm' } | null;

/**
 * Spec 1, section 4 "MFA": add, edit (run the setup again) or disable after confirmation. Editing
 * and disabling an added MFA need a session that proved the current code: a password session is
 * asked for a code first.
 */
export function MfaSection() {
  const me = useCurrentUser();
  const refreshMe = useRefreshMe();
  const [step, setStep] = useState<Step>(null);
  const [done, showDone, hideDone] = useTemporaryFlag(SAVED_MESSAGE_MS);
  const [doneMessage, setDoneMessage] = useState<'account.mfa.added' | 'account.mfa.disabled'>('account.mfa.added');

  const disable = useDisableMfa({
    onSuccess: () => {
      setStep(null);
      setDoneMessage('account.mfa.disabled');
      showDone();
    },
  });

  const start = (action: Action) => {
    hideDone();
    disable.reset();
    const needsCode = action !== 'add' && me.mfaAdded && !isStrongSession(me);
    setStep({ action, stage: needsCode ? 'code' : action === 'disable' ? 'confirm' : 'setup' });
  };

  const close = () => setStep(null);

  const onUpgraded = async (next: Me) => {
    await refreshMe(next);
    setStep((current) => (current ? { ...current, stage: current.action === 'disable' ? 'confirm' : 'setup' } : null));
  };

  const onConfirmed = async (next: Me) => {
    setStep(null);
    setDoneMessage('account.mfa.added');
    showDone();
    await refreshMe(next);
  };

  return (
    <AccountSection
      title={<FormattedMessage id="account.mfa.title" />}
      description={<FormattedMessage id="account.mfa.description" />}
      status={
        <StatusBadge on={me.mfaAdded} testId="account-mfa-status">
          <FormattedMessage id={me.mfaAdded ? 'account.mfa.on' : 'account.mfa.off'} />
        </StatusBadge>
      }
      testId="account-mfa"
    >
      {done ? (
        <Alert kind="success" testId="account-mfa-done">
          <FormattedMessage id={doneMessage} />
        </Alert>
      ) : null}
      <div className="account-actions">
        {me.mfaAdded ? (
          <>
            <button type="button" className="button" onClick={() => start('edit')} data-testid="account-mfa-edit">
              <FormattedMessage id="account.mfa.edit" />
            </button>
            <button type="button" className="button button-danger-outline" onClick={() => start('disable')} data-testid="account-mfa-disable">
              <FormattedMessage id="account.mfa.disable" />
            </button>
          </>
        ) : (
          <button type="button" className="button button-primary" onClick={() => start('add')} data-testid="account-mfa-add">
            <FormattedMessage id="account.mfa.add" />
          </button>
        )}
      </div>

      {step?.stage === 'code' ? (
        <Modal title={<FormattedMessage id="account.mfa.stepUpTitle" />} onClose={close} testId="account-mfa-step-up">
          <div className="form">
            <p className="muted">
              <FormattedMessage id="account.mfa.stepUpText" />
            </p>
            <MfaCodeForm send={(code) => upgradeSessionToMfa({ code })} onDone={onUpgraded} onCancel={close} submitLabel="mfa.enter.submit" />
          </div>
        </Modal>
      ) : null}

      {step?.stage === 'setup' ? (
        <Modal title={<FormattedMessage id="mfa.setup.title" />} onClose={close} testId="account-mfa-modal">
          <MfaSetupPanel edit={step.action === 'edit'} onConfirmed={onConfirmed} onCancel={close} />
        </Modal>
      ) : null}

      {step?.stage === 'confirm' ? (
        <ConfirmDialog
          title={<FormattedMessage id="account.mfa.disableTitle" />}
          message={<FormattedMessage id="account.mfa.disableQuestion" />}
          confirmLabel={<FormattedMessage id="account.mfa.disable" />}
          danger
          busy={disable.isPending}
          onConfirm={() => disable.mutate()}
          onCancel={close}
          error={disable.isError ? <ErrorAlert error={disable.error} testId="account-mfa-disable-error" /> : null}
          testId="account-mfa-disable-dialog"
        />
      ) : null}
    </AccountSection>
  );
}
