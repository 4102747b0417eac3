import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { errorCodeOf, isApiError } from '../../api';
import { Alert } from '../../components/Alert';
import { fieldIssueMessage } from '../../components/FieldError';
import { useToasts } from '../../components/Toasts';
import { validateEmail } from '../auth/form';
import { useCurrentUser } from '../auth/hooks';
import { TextInputField } from '../auth/TextInputField';
import { AccountSection } from './AccountSection';
import { EMAIL_CHANGE_QUERY_KEY, fetchEmailChange, requestEmailChange } from './api';

export const SAVED_MESSAGE_MS = 6_000;

/** Messages per field: `validation.*` keys or `error.<CODE>` from the server. */
interface EmailErrors {
  email?: string;
  current?: string;
}

/**
 * The user's own e-mail: the new address and the current password. The change waits for the
 * link mailed to the new address; until then the section says where to confirm it.
 */
export function EmailSection() {
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const { showError } = useToasts();
  const [email, setEmail] = useState(me.email);
  const [current, setCurrent] = useState('');
  const [errors, setErrors] = useState<EmailErrors>({});
  const pending = useQuery({ queryKey: EMAIL_CHANGE_QUERY_KEY, queryFn: fetchEmailChange }).data?.pendingEmail ?? null;

  const mutation = useMutation({
    mutationFn: requestEmailChange,
    onSuccess: (status) => {
      queryClient.setQueryData(EMAIL_CHANGE_QUERY_KEY, status);
      setCurrent('');
      setEmail(me.email);
    },
    onError: (error) => {
      const code = errorCodeOf(error);
      const issue = isApiError(error) ? fieldIssueMessage(error.fieldIssues, 'email') : undefined;
      if (code === 'EMAIL_IN_USE') setErrors({ email: `error.${code}` });
      else if (code === 'INVALID_CURRENT_PASSWORD') setErrors({ current: `error.${code}` });
      else if (issue) setErrors({ email: issue });
      else showError(error);
    },
  });

  const unchanged = email.trim().toLowerCase() === me.email.toLowerCase();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next: EmailErrors = { email: validateEmail(email), current: current ? undefined : 'validation.required' };
    setErrors(next);
    if (next.email || next.current || unchanged) return;
    mutation.mutate({ email: email.trim(), currentPassword: current });
  };

  return (
    <AccountSection title={<FormattedMessage id="account.email.title" />} testId="account-email">
      {pending ? (
        <Alert kind="info" title={<FormattedMessage id="account.email.pendingTitle" />} testId="account-email-pending">
          <FormattedMessage id="account.email.pending" values={{ email: <strong key="email">{pending}</strong>, current: me.email }} />
        </Alert>
      ) : null}
      {me.hasPassword ? (
        <form className="form" onSubmit={onSubmit} noValidate>
          <TextInputField
            labelId="account.email.field"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(value) => {
              setEmail(value);
              setErrors((previous) => ({ ...previous, email: undefined }));
            }}
            message={errors.email}
            testId="account-email-input"
          />
          <TextInputField
            labelId="account.email.currentPassword"
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(value) => {
              setCurrent(value);
              setErrors((previous) => ({ ...previous, current: undefined }));
            }}
            message={errors.current}
            testId="account-email-current"
          />
          <p className="muted">
            <FormattedMessage id="account.email.howItWorks" />
          </p>
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={mutation.isPending || unchanged} data-testid="account-email-save">
              <FormattedMessage id="account.email.save" />
            </button>
          </div>
        </form>
      ) : (
        <p className="muted account-text" data-testid="account-email-no-password">
          <FormattedMessage id="account.email.needsPassword" />
        </p>
      )}
    </AccountSection>
  );
}
