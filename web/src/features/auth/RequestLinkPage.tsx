import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Alert } from '../../components/Alert';
import { AuthHeading } from './AuthHeading';
import { readExpiredSession } from './session-storage';
import { BackToLogin } from './AuthLinks';
import { validateEmail } from './form';
import { TextInputField } from './TextInputField';
import { useTemporaryFlag } from './useTemporaryFlag';
import type { MessageKey } from '../../i18n/messages';

/** Spec 1, section 8: the success message of reset and resend is shown for 10 seconds. */
export const REQUEST_SUCCESS_MS = 10_000;

export interface RequestLinkTexts {
  title: MessageKey;
  description: MessageKey;
  submit: MessageKey;
  success: MessageKey;
}

/**
 * An e-mail form that asks the server to send a link (password reset, registration confirmation).
 * The server answers the same for known and unknown addresses.
 */
export function RequestLinkPage({
  texts,
  send,
  testId,
}: {
  texts: RequestLinkTexts;
  send: (email: string) => Promise<void>;
  testId: string;
}) {
  const intl = useIntl();
  const [email, setEmail] = useState(() => readExpiredSession()?.email ?? '');
  const [emailError, setEmailError] = useState<string | undefined>();
  const [sent, showSent, hideSent] = useTemporaryFlag(REQUEST_SUCCESS_MS);

  const mutation = useMutation({ mutationFn: send, onSuccess: showSent });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    hideSent();
    const error = validateEmail(email);
    setEmailError(error);
    if (error) return;
    mutation.mutate(email.trim());
  };

  return (
    <form className="form auth-page" onSubmit={onSubmit} noValidate data-testid={testId}>
      <AuthHeading titleId={texts.title} descriptionId={texts.description} />

      {sent ? (
        <Alert kind="success" testId={`${testId}-success`}>
          <FormattedMessage id={texts.success} />
        </Alert>
      ) : null}
      {mutation.isError ? <ErrorAlert error={mutation.error} testId={`${testId}-error`} /> : null}

      <TextInputField
        labelId="login.email"
        name="email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={setEmail}
        message={emailError}
        testId={`${testId}-email`}
      />

      <button type="submit" className="button button-primary button-block" disabled={mutation.isPending} data-testid={`${testId}-submit`}>
        {intl.formatMessage({ id: mutation.isPending ? 'auth.sending' : texts.submit })}
      </button>

      <BackToLogin />
    </form>
  );
}
