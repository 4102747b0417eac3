import { AUTHENTICATION_TYPES, type AuthenticationType, loginRequestSchema, type Me } from '@eelarve/shared';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useSearchParams } from 'react-router';
import { errorCodeOf } from '../../api';
import { useStartSession } from '../../app/session';
import { navigateToElectronicId } from '../../app/session/electronic-id';
import { readExpiredSession } from '../../app/session/session-storage';
import { Alert } from '../../components/Alert';
import { CheckboxField, Form, pickErrors, TextField, useFieldErrors, validate } from '../../components/form';
import { AuthTypeIcon } from '../../components/icons';
import { useLocale } from '../../i18n/I18nProvider';
import { errorMessageKey } from '../../i18n/keys';
import { isLocaleCode } from '../../i18n/locale-storage';
import { electronicIdLoginUrl, useSignIn } from './api';
import { ElectronicIdFailure } from './ElectronicIdFailure';

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

/** /login: e-mail and password (with remember-me), or the ID card; MFA follows the occupation choice. */
export function LoginPage() {
  const intl = useIntl();
  const startSession = useStartSession();
  const { setLocale } = useLocale();
  const flags = useLoginFlags();
  // After an expiry the last user's e-mail is offered again.
  const [username, setUsername] = useState(() => readExpiredSession()?.email ?? '');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const { errors: fieldErrors, setErrors: setFieldErrors } = useFieldErrors();
  const [sessionExpired] = useState(() => readExpiredSession() !== null);

  const signedIn = (me: Me) => {
    if (isLocaleCode(me.userLanguage)) setLocale(me.userLanguage);
    // The login route's guard sends the user on (occupation selection, the last page or home).
    startSession(me);
  };

  const mutation = useSignIn({ onSuccess: signedIn });

  const onSubmit = () => {
    const { data, errors } = validate(loginRequestSchema, { username, password, rememberMe, occupationId: flags.occupationId });
    setFieldErrors(pickErrors(errors, ['username', 'password']));
    if (data) mutation.mutate(data);
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
    <Form className="login-form" onSubmit={onSubmit} testId="login-form">
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

      <TextField
        labelId="login.email"
        name="username"
        type="email"
        autoComplete="username"
        value={username}
        onChange={setUsername}
        error={fieldErrors.username}
        testId="login-email"
      />

      <TextField
        labelId="login.password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        error={fieldErrors.password}
        testId="login-password"
      />

      <CheckboxField checked={rememberMe} onChange={setRememberMe} testId="login-remember-me">
        <FormattedMessage id="login.rememberMe" />
      </CheckboxField>

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
    </Form>
  );
}
