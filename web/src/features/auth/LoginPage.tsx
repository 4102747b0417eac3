import { loginRequestSchema, type Me } from '@eelarve/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { errorCodeOf } from '../../api';
import { Alert } from '../../components/Alert';
import { FieldError } from '../../components/FieldError';
import { useLocale } from '../../i18n/I18nProvider';
import { errorMessageKey } from '../../i18n/keys';
import { isLocaleCode } from '../../i18n/locale-storage';
import { login } from './api';
import { resetClientState } from './session';
import { readExpiredSession } from './session-storage';

type LoginField = 'username' | 'password';

/** /login: e-mail and password (MFA and ID card come with their own issues). */
export function LoginPage() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const { setLocale } = useLocale();
  const emailId = useId();
  const passwordId = useId();
  // After an expiry the last user's e-mail is offered again.
  const [username, setUsername] = useState(() => readExpiredSession()?.email ?? '');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<LoginField, string>>>({});
  const [sessionExpired] = useState(() => readExpiredSession() !== null);

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: (me: Me) => {
      if (isLocaleCode(me.userLanguage)) setLocale(me.userLanguage);
      // The login route's guard sends the user on (occupation selection, the last page or home).
      resetClientState(queryClient, me);
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = loginRequestSchema.safeParse({ username, password, rememberMe });
    if (!parsed.success) {
      const errors: Partial<Record<LoginField, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'username' || field === 'password') && !errors[field]) errors[field] = issue.message;
      }
      setFieldErrors(errors);
      return;
    }
    setFieldErrors({});
    mutation.mutate(parsed.data);
  };

  return (
    <form className="form login-form" onSubmit={onSubmit} noValidate data-testid="login-form">
      <h1 className="login-title">
        <FormattedMessage id="login.title" />
      </h1>

      {sessionExpired && !mutation.isError ? (
        <Alert kind="warning" testId="session-expired">
          <FormattedMessage id="login.sessionExpired" />
        </Alert>
      ) : null}
      {mutation.isError ? (
        <Alert kind="error" testId="login-error">
          <span data-error-code={errorCodeOf(mutation.error)}>
            <FormattedMessage id={errorMessageKey(errorCodeOf(mutation.error))} />
          </span>
        </Alert>
      ) : null}

      <div className="field">
        <label htmlFor={emailId}>
          <FormattedMessage id="login.email" />
        </label>
        <input
          id={emailId}
          name="username"
          type="email"
          autoComplete="username"
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          aria-invalid={fieldErrors.username ? true : undefined}
          data-testid="login-email"
        />
        <FieldError message={fieldErrors.username} />
      </div>

      <div className="field">
        <label htmlFor={passwordId}>
          <FormattedMessage id="login.password" />
        </label>
        <input
          id={passwordId}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          aria-invalid={fieldErrors.password ? true : undefined}
          data-testid="login-password"
        />
        <FieldError message={fieldErrors.password} />
      </div>

      <label className="checkbox">
        <input
          type="checkbox"
          checked={rememberMe}
          onChange={(event) => setRememberMe(event.target.checked)}
          data-testid="login-remember-me"
        />
        <FormattedMessage id="login.rememberMe" />
      </label>

      <button type="submit" className="button button-primary button-block" disabled={mutation.isPending} data-testid="login-submit">
        {intl.formatMessage({ id: mutation.isPending ? 'login.submitting' : 'login.submit' })}
      </button>

      <div className="login-links">
        <Link to="/reset-password" data-testid="forgot-password-link">
          <FormattedMessage id="login.forgotPassword" />
        </Link>
        <Link to="/resend-confirmation" data-testid="resend-confirmation-link">
          <FormattedMessage id="login.resendConfirmation" />
        </Link>
      </div>
    </form>
  );
}
