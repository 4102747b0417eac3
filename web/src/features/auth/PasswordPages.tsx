import { useSearchParams } from 'react-router';
import { RequestLinkPage } from './RequestLinkPage';
import { SetPasswordPage } from './SetPasswordPage';

/** /reset-password: without a token the e-mail form for a reset link, with one the new password. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  if (token !== null) return <SetPasswordPage key={token} type="RESET" offerElectronicId={false} />;
  return (
    <RequestLinkPage
      testId="reset-request"
      request="passwordReset"
      texts={{
        title: 'resetRequest.title',
        description: 'resetRequest.description',
        submit: 'resetRequest.submit',
        success: 'resetRequest.success',
      }}
    />
  );
}

/** /resend-confirmation: the registration e-mail once more. */
export function ResendConfirmationPage() {
  return (
    <RequestLinkPage
      testId="resend-confirmation"
      request="registrationConfirmation"
      texts={{
        title: 'resendConfirmation.title',
        description: 'resendConfirmation.description',
        submit: 'resendConfirmation.submit',
        success: 'resendConfirmation.success',
      }}
    />
  );
}

/** /update-password?token=: a new password, or the electronic ID instead (reset mode). */
export function UpdatePasswordPage() {
  const [params] = useSearchParams();
  return <SetPasswordPage key={params.get('token') ?? ''} type="RESET" offerElectronicId />;
}

/** /confirm?token=: the same screen in registration mode. */
export function ConfirmRegistrationPage() {
  const [params] = useSearchParams();
  return <SetPasswordPage key={params.get('token') ?? ''} type="REGISTRATION" offerElectronicId />;
}
