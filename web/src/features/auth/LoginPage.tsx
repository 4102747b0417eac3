import { AUTHENTICATION_TYPES, type AuthenticationType, type LoginRequest, loginRequestSchema, type Me } from '@eelarve/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useSearchParams } from 'react-router';
import { errorCodeOf, isApiError } from '../../api';
import { Alert } from '../../components/Alert';
import { AuthTypeIcon } from '../../components/icons';
import { useLocale } from '../../i18n/I18nProvider';
import { errorMessageKey } from '../../i18n/keys';
import { isLocaleCode } from '../../i18n/locale-storage';
import { electronicIdLoginUrl, fetchMe, login, navigateToElectronicId } from './api';
import { ElectronicIdFailure } from './ElectronicIdFailure';
import { mfaPath } from './mfa-flow';
import { resetClientState } from './session';
import { readExpiredSession, setPendingStep } from './session-storage';
import { TextInputField } from './TextInputField';

type LoginField = 'username' | 'password';

function isAuthenticationType(value: string | null): value is AuthenticationType {
  return value !== null && (AUTHENTICATION_TYPES as readonly string[]).includes(value);
}

/** The query flags other pages and the electronic-ID provider send the user back with. */
function useLoginFlags() {
  const [params] = useSearchParams();
  const type = params.get('authenticationType');
  const occupationId = params.get('occupationId');
  return {
    reset: params.get('reset') === 'true',
    registered: params.get('registered') === 'true',
    /** Spec 1, section 4: "returns to /login with a predefined authentication type". */
    authenticationType: isAuthenticationType(type) ? type : null,
    occupationId: occupationId && /^[0-9a-f-]{36}$/i.test(occupationId) ? occupationId : null,
  };
}

/** Refusals of a sign-in step that leave a session behind and tell where to go next. */
const SIGN_IN_STEPS = new Set<string>(['ENTER_MFA_CODE', 'MFA_NOT_SET_UP', 'ORGANIZATION_UNSUITABLE']);

/** The occupation the server named with ENTER_MFA_CODE / MFA_NOT_SET_UP (null: the user chooses after the code). */
function occupationOfStep(error: unknown): string | null {
  if (!isApiError(error) || typeof error.details !== 'object' || error.details === null) return null;
  const { occupationId } = error.details as { occupationId?: unknown };
  return typeof occupationId === 'string' ? occupationId : null;
}

/** /login: e-mail and password (with remember-me), or the ID card; MFA follows the occupation choice. */
export function LoginPage() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const { setLocale } = useLocale();
  const flags = useLoginFlags();
  // After an expiry the last user's e-mail is offered again.
  const [username, setUsername] = useState(() => readExpiredSession()?.email ?? '');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<LoginField, string>>>({});
  const [sessionExpired] = useState(() => readExpiredSession() !== null);

  const signedIn = (me: Me) => {
    if (isLocaleCode(me.userLanguage)) setLocale(me.userLanguage);
    // The login route's guard sends the user on (occupation selection, the last page or home).
    resetClientState(queryClient, me);
  };

  const mutation = useMutation({
    mutationFn: async (request: LoginRequest): Promise<Me> => {
      try {
        return await login(request);
      } catch (error) {
        const code = errorCodeOf(error);
        // The occupation of the link is not this user's: an ordinary login instead.
        if (code === 'OCCUPATION_NOT_FOUND' && request.occupationId) return login({ ...request, occupationId: null });
        // Spec 1, section 4: the organisation wants MFA (or another way in). The session exists
        // (the server set its cookie); the code entry, its setup, or the occupation list is next.
        if (!isApiError(error) || error.status !== 403 || !SIGN_IN_STEPS.has(code)) throw error;
        const me = await fetchMe();
        if (!me) throw error;
        if (code !== 'ORGANIZATION_UNSUITABLE') {
          setPendingStep(me.id, mfaPath(code === 'ENTER_MFA_CODE', occupationOfStep(error) ?? request.occupationId));
        }
        return me;
      }
    },
    onSuccess: signedIn,
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = loginRequestSchema.safeParse({ username, password, rememberMe, occupationId: flags.occupationId });
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

  const electronicIdFirst = flags.authenticationType === 'PASS';
  const electronicIdButton = (
    <button
      type="button"
      className={electronicIdFirst ? 'button button-primary button-block electronic-id-button' : 'button button-block electronic-id-button'}
      onClick={() => navigateToElectronicId(electronicIdLoginUrl())}
      data-testid="login-electronic-id"
    >
      <AuthTypeIcon type="PASS" />
      <FormattedMessage id="login.electronicId" />
    </button>
  );

  return (
    <form className="form login-form" onSubmit={onSubmit} noValidate data-testid="login-form">
      <h1 className="login-title">
        <FormattedMessage id="login.title" />
      </h1>

      {flags.registered && !mutation.isError ? (
        <Alert kind="success" testId="login-registered">
          <FormattedMessage id="login.registeredSuccess" />
        </Alert>
      ) : null}
      {flags.reset && !mutation.isError ? (
        <Alert kind="success" testId="login-reset">
          <FormattedMessage id="login.resetSuccess" />
        </Alert>
      ) : null}
      <ElectronicIdFailure titleKey="login.electronicIdError" testId="login-eid-error" />
      {flags.authenticationType && flags.authenticationType !== 'BASIC' ? (
        <Alert kind="info" testId="login-required-type">
          <FormattedMessage id={`login.requiredType.${flags.authenticationType}`} />
        </Alert>
      ) : null}
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

      {electronicIdFirst ? (
        <>
          {electronicIdButton}
          <div className="auth-divider">
            <span>
              <FormattedMessage id="auth.or" />
            </span>
          </div>
        </>
      ) : null}

      <TextInputField
        labelId="login.email"
        name="username"
        type="email"
        autoComplete="username"
        value={username}
        onChange={setUsername}
        message={fieldErrors.username}
        testId="login-email"
      />

      <TextInputField
        labelId="login.password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        message={fieldErrors.password}
        testId="login-password"
      />

      <label className="checkbox">
        <input
          type="checkbox"
          checked={rememberMe}
          onChange={(event) => setRememberMe(event.target.checked)}
          data-testid="login-remember-me"
        />
        <FormattedMessage id="login.rememberMe" />
      </label>

      <button
        type="submit"
        className={electronicIdFirst ? 'button button-block' : 'button button-primary button-block'}
        disabled={mutation.isPending}
        data-testid="login-submit"
      >
        {intl.formatMessage({ id: mutation.isPending ? 'login.submitting' : 'login.submit' })}
      </button>

      {electronicIdFirst ? null : (
        <>
          <div className="auth-divider">
            <span>
              <FormattedMessage id="auth.or" />
            </span>
          </div>
          {electronicIdButton}
        </>
      )}

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
