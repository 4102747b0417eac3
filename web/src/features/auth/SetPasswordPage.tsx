import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate, useSearchParams } from 'react-router';
import { errorCodeOf } from '../../api';
import { navigateToElectronicId } from '../../app/session/electronic-id';
import { Alert } from '../../components/Alert';
import { AuthHeading } from '../../components/AuthHeading';
import { BackToLogin } from '../../components/BackToLogin';
import { Form, hasErrors, pickErrors, serverFieldErrors, useFieldErrors } from '../../components/form';
import { AuthTypeIcon } from '../../components/icons';
import { NewPasswordFields } from '../../components/password/NewPasswordFields';
import { validateNewPassword } from '../../components/password/new-password';
import { Spinner } from '../../components/Spinner';
import { useToasts } from '../../components/Toasts';
import { electronicIdConfirmUrl, type TokenType, useConfirmPassword, useTokenVerification } from './api';
import { ElectronicIdFailure } from './ElectronicIdFailure';

/**
 * Spec 1, section 4 "Password pages": loading (the token is checked), initialised, error (the
 * token is not usable: a banner and a disabled form) and submitting; a failed submit returns to
 * initialised (the error itself is a toast, spec 1, section 8).
 */
export type PasswordPageState = 'loading' | 'initialised' | 'error' | 'submitting';

export interface SetPasswordPageProps {
  /** REGISTRATION: /confirm; RESET: /reset-password?token= and /update-password. */
  type: TokenType;
  /** /update-password and /confirm offer the electronic ID instead of a password. */
  offerElectronicId: boolean;
}

/** Where the user goes after success: /login with the flag of what succeeded (spec 1, section 2). */
export function successTarget(type: TokenType): string {
  return type === 'REGISTRATION' ? '/login?registered=true' : '/login?reset=true';
}

export function SetPasswordPage({ type, offerElectronicId }: SetPasswordPageProps) {
  const intl = useIntl();
  const navigate = useNavigate();
  const { showError } = useToasts();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const { errors, setErrors } = useFieldErrors();
  const [tokenRejected, setTokenRejected] = useState(false);

  const verification = useTokenVerification(token);

  const submit = useConfirmPassword({
    onSuccess: () => navigate(successTarget(type), { replace: true }),
    onError: (error) => {
      // The password's own issue of a refused body, or a weak password, is shown on its field.
      const onPassword = pickErrors(serverFieldErrors(error, { PASSWORD_NOT_STRONG: 'password' }), ['password']);
      if (errorCodeOf(error) === 'INVALID_OR_EXPIRED_TOKEN') setTokenRejected(true);
      else if (hasErrors(onPassword)) setErrors(onPassword);
      else showError(error);
    },
  });

  const state: PasswordPageState =
    token === '' || tokenRejected || verification.isError ? 'error' : verification.isPending ? 'loading' : submit.isPending ? 'submitting' : 'initialised';

  const allowed = verification.data?.allowedAuthenticationTypes ?? [];
  // A password is offered unless the organisation only allows the electronic ID.
  const offerPassword = allowed.length === 0 || allowed.some((candidate) => candidate === 'LOGIN' || candidate === 'LOGIN_WITH_MFA');
  const showElectronicId = offerElectronicId && allowed.includes('PASS');
  const disabled = state !== 'initialised';

  const onSubmit = () => {
    if (disabled) return;
    const next = validateNewPassword(password, repeat);
    setErrors(next);
    if (hasErrors(next)) return;
    submit.mutate({ type, token, password });
  };

  const texts =
    type === 'REGISTRATION'
      ? ({ title: 'setPassword.registration.title', description: 'setPassword.registration.description' } as const)
      : ({ title: 'setPassword.reset.title', description: 'setPassword.reset.description' } as const);

  return (
    <Form className="auth-page" onSubmit={onSubmit} testId="set-password-form" state={state}>
      <AuthHeading titleId={texts.title} descriptionId={texts.description} />

      <ElectronicIdFailure titleKey="setPassword.electronicIdError" testId="set-password-eid-error" />
      {state === 'loading' ? <Spinner /> : null}
      {state === 'error' ? (
        <Alert kind="error" title={<FormattedMessage id="setPassword.tokenInvalid.title" />} testId="token-error">
          <FormattedMessage id="setPassword.tokenInvalid.text" />
        </Alert>
      ) : null}

      <fieldset className="fieldset auth-fieldset" disabled={disabled}>
        {offerPassword || state !== 'initialised' ? (
          <>
            <NewPasswordFields
              labelIds={{ password: type === 'REGISTRATION' ? 'setPassword.passwordRegistration' : 'setPassword.password', repeat: 'setPassword.repeat' }}
              password={password}
              repeat={repeat}
              onPasswordChange={setPassword}
              onRepeatChange={setRepeat}
              errors={errors}
              named
              describedByHint
              testIdPrefix="set-password"
            />
            <button type="submit" className="button button-primary button-block" data-testid="set-password-submit">
              {intl.formatMessage({ id: state === 'submitting' ? 'setPassword.submitting' : 'setPassword.submit' })}
            </button>
          </>
        ) : null}

        {showElectronicId ? (
          <>
            {offerPassword ? (
              <div className="auth-divider">
                <span>
                  <FormattedMessage id="auth.or" />
                </span>
              </div>
            ) : null}
            <button
              type="button"
              className="button button-block electronic-id-button"
              onClick={() => navigateToElectronicId(electronicIdConfirmUrl(token, type))}
              data-testid="set-password-electronic-id"
            >
              <AuthTypeIcon type="PASS" />
              <FormattedMessage id="setPassword.electronicId" />
            </button>
          </>
        ) : null}
      </fieldset>

      <BackToLogin />
    </Form>
  );
}
