import { useEffect, useRef } from 'react';
import { FormattedMessage } from 'react-intl';
import { useSearchParams } from 'react-router';
import { Alert } from '../../components/Alert';
import { ErrorAlert } from '../../components/ErrorAlert';
import { AuthHeading } from '../../components/AuthHeading';
import { BackToLogin } from '../../components/BackToLogin';
import { useConfirmEmailChange } from './api';

/**
 * /confirm-email?token=: the link mailed to a new e-mail address. Opening it makes the change
 * (with or without a session: the link itself proves the address).
 */
export function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const mutation = useConfirmEmailChange();
  // The token is single use: send it once, even when effects run twice (development mode).
  const sent = useRef(false);
  const { mutate } = mutation;
  useEffect(() => {
    if (sent.current || !token) return;
    sent.current = true;
    mutate(token);
  }, [mutate, token]);

  return (
    <div className="form auth-page" data-testid="confirm-email">
      <AuthHeading titleId="confirmEmail.title" descriptionId="confirmEmail.description" />
      {!token ? (
        <Alert kind="error" testId="confirm-email-error">
          <span data-error-code="INVALID_OR_EXPIRED_TOKEN">
            <FormattedMessage id="error.INVALID_OR_EXPIRED_TOKEN" />
          </span>
        </Alert>
      ) : null}
      {mutation.isPending ? (
        <p className="muted" data-testid="confirm-email-pending">
          <FormattedMessage id="confirmEmail.pending" />
        </p>
      ) : null}
      {mutation.isSuccess ? (
        <Alert kind="success" testId="confirm-email-success">
          <FormattedMessage id="confirmEmail.success" values={{ email: <strong key="email">{mutation.data.email}</strong> }} />
        </Alert>
      ) : null}
      {mutation.isError ? <ErrorAlert error={mutation.error} testId="confirm-email-error" /> : null}
      <BackToLogin />
    </div>
  );
}
