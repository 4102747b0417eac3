import { useMutation } from '@tanstack/react-query';
import { fieldIssueMessage } from '../../components/FieldError';
import { type FormEvent, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { errorCodeOf, isApiError } from '../../api';
import { Alert } from '../../components/Alert';
import { useToasts } from '../../components/Toasts';
import { changeEmail } from '../auth/api';
import { validateEmail } from '../auth/form';
import { useCurrentUser } from '../auth/hooks';
import { TextInputField } from '../auth/TextInputField';
import { useTemporaryFlag } from '../auth/useTemporaryFlag';
import { AccountSection } from './AccountSection';
import { useRefreshMe } from './useMe';

export const SAVED_MESSAGE_MS = 6_000;

/** Codes that belong to the e-mail field rather than a toast. */
const FIELD_CODES = new Set(['EMAIL_IN_USE']);

export function EmailSection() {
  const me = useCurrentUser();
  const refreshMe = useRefreshMe();
  const { showError } = useToasts();
  const [email, setEmail] = useState(me.email);
  const [problem, setProblem] = useState<string | undefined>();
  const [saved, showSaved, hideSaved] = useTemporaryFlag(SAVED_MESSAGE_MS);

  const mutation = useMutation({
    mutationFn: changeEmail,
    onSuccess: async (next) => {
      await refreshMe(next);
      setEmail(next.email);
      showSaved();
    },
    onError: (error) => {
      const code = errorCodeOf(error);
      const issue = isApiError(error) ? fieldIssueMessage(error.fieldIssues, 'email') : undefined;
      if (FIELD_CODES.has(code)) setProblem(`error.${code}`);
      else if (issue) setProblem(issue);
      else showError(error);
    },
  });

  const unchanged = email.trim().toLowerCase() === me.email.toLowerCase();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    hideSaved();
    const invalid = validateEmail(email);
    setProblem(invalid);
    if (invalid || unchanged) return;
    mutation.mutate(email.trim());
  };

  return (
    <AccountSection title={<FormattedMessage id="account.email.title" />} testId="account-email">
      <form className="form" onSubmit={onSubmit} noValidate>
        {saved ? (
          <Alert kind="success" testId="account-email-saved">
            <FormattedMessage id="account.email.saved" />
          </Alert>
        ) : null}
        <TextInputField
          labelId="account.email.field"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(value) => {
            setEmail(value);
            setProblem(undefined);
          }}
          message={problem}
          testId="account-email-input"
        />
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={mutation.isPending || unchanged} data-testid="account-email-save">
            <FormattedMessage id="account.email.save" />
          </button>
        </div>
      </form>
    </AccountSection>
  );
}
