import { emailRequestSchema } from '@eelarve/shared';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { readExpiredSession } from '../../app/session/session-storage';
import { Alert } from '../../components/Alert';
import { AuthHeading } from '../../components/AuthHeading';
import { BackToLogin } from '../../components/BackToLogin';
import { ErrorAlert } from '../../components/ErrorAlert';
import { type FieldMessage, Form, firstMessage, messageOf, TextField } from '../../components/form';
import { useTemporaryFlag } from '../../components/useTemporaryFlag';
import type { MessageKey } from '../../i18n/messages';
import { type LinkRequest, useRequestLink } from './api';

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
export function RequestLinkPage({ texts, request, testId }: { texts: RequestLinkTexts; request: LinkRequest; testId: string }) {
  const intl = useIntl();
  const [email, setEmail] = useState(() => readExpiredSession()?.email ?? '');
  const [emailError, setEmailError] = useState<FieldMessage | undefined>();
  const [sent, showSent, hideSent] = useTemporaryFlag(REQUEST_SUCCESS_MS);

  const mutation = useRequestLink(request, { onSuccess: showSent });

  const onSubmit = () => {
    hideSent();
    const error = messageOf(firstMessage(emailRequestSchema, { email }));
    setEmailError(error);
    if (error) return;
    mutation.mutate(email.trim());
  };

  return (
    <Form className="auth-page" onSubmit={onSubmit} testId={testId}>
      <AuthHeading titleId={texts.title} descriptionId={texts.description} />

      {sent ? (
        <Alert kind="success" testId={`${testId}-success`}>
          <FormattedMessage id={texts.success} />
        </Alert>
      ) : null}
      {mutation.isError ? <ErrorAlert error={mutation.error} testId={`${testId}-error`} /> : null}

      <TextField
        labelId="login.email"
        name="email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={setEmail}
        error={emailError}
        testId={`${testId}-email`}
      />

      <button type="submit" className="button button-primary button-block" disabled={mutation.isPending} data-testid={`${testId}-submit`}>
        {intl.formatMessage({ id: mutation.isPending ? 'auth.sending' : texts.submit })}
      </button>

      <BackToLogin />
    </Form>
  );
}
