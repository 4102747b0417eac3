import type { Me } from '@eelarve/shared';
import { FormattedMessage, useIntl } from 'react-intl';
import type { MessageKey } from '../../i18n/messages';
import { ErrorAlert } from '../ErrorAlert';
import { Spinner } from '../Spinner';
import { confirmMfaCode, useMfaSecret } from './api';
import { MfaCodeForm } from './MfaCodeForm';
import './mfa.css';

/** The secret in groups of four, easier to type into an app by hand. */
export function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * MFA setup (spec 1, section 4): the secret as a QR code and as text, then a six-digit code from
 * the authenticator app to confirm it. Used by /setup-mfa and by the account settings.
 */
export function MfaSetupPanel({
  occupationId,
  edit = false,
  onConfirmed,
  onCancel,
  cancelLabel,
}: {
  occupationId?: string;
  /** Re-runs the setup of an added MFA (the old secret works until the new one is confirmed). */
  edit?: boolean;
  onConfirmed: (me: Me) => void;
  onCancel: () => void;
  cancelLabel?: MessageKey;
}) {
  const intl = useIntl();
  const secret = useMfaSecret(edit);

  return (
    <div className="mfa-setup" data-testid="mfa-setup">
      <ol className="mfa-steps">
        <li>
          <FormattedMessage id="mfa.setup.step1" />
        </li>
        <li>
          <FormattedMessage id="mfa.setup.step2" />
        </li>
      </ol>
      {secret.isPending ? <Spinner /> : null}
      {secret.isError ? <ErrorAlert error={secret.error} testId="mfa-secret-error" /> : null}
      {secret.data ? (
        <div className="mfa-secret-box">
          <img className="mfa-qr" src={secret.data.qrCode} alt={intl.formatMessage({ id: 'mfa.setup.qrAlt' })} data-testid="mfa-qr" />
          <div className="mfa-secret-text">
            <span className="muted">
              <FormattedMessage id="mfa.setup.manual" />
            </span>
            <code className="mfa-secret" data-testid="mfa-secret" data-secret={secret.data.code}>
              {groupSecret(secret.data.code)}
            </code>
          </div>
        </div>
      ) : null}
      <MfaCodeForm
        send={(code) => confirmMfaCode(occupationId ? { code, occupationId } : { code })}
        onDone={onConfirmed}
        onCancel={onCancel}
        cancelLabel={cancelLabel}
        submitLabel="mfa.setup.submit"
        disabled={!secret.data}
        testId="mfa-setup-form"
      />
    </div>
  );
}
