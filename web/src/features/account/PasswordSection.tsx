import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router';
import { errorCodeOf } from '../../api';
import { Alert } from '../../components/Alert';
import { useToasts } from '../../components/Toasts';
import { changePassword } from '../auth/api';
import { hasErrors, validatePasswordPair } from '../auth/form';
import { useCurrentUser } from '../auth/hooks';
import { NewPasswordFields, TextInputField } from '../auth/TextInputField';
import { useTemporaryFlag } from '../auth/useTemporaryFlag';
import { AccountSection, StatusBadge } from './AccountSection';
import { SAVED_MESSAGE_MS } from './EmailSection';
import { useRefreshMe } from './useMe';

/** Messages per field: `validation.*` keys or `error.<CODE>` from the server. */
interface PasswordErrors {
  current?: string;
  password?: string;
  repeat?: string;
}

/** Current password, new password and its repeat (spec 1, section 5). */
export function PasswordSection() {
  const me = useCurrentUser();
  const refreshMe = useRefreshMe();
  const { showError } = useToasts();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<PasswordErrors>({});
  const [saved, showSaved, hideSaved] = useTemporaryFlag(SAVED_MESSAGE_MS);

  const mutation = useMutation({
    mutationFn: changePassword,
    onSuccess: async () => {
      setCurrent('');
      setPassword('');
      setRepeat('');
      showSaved();
      await refreshMe();
    },
    onError: (error) => {
      const code = errorCodeOf(error);
      // Spec 1, section 8: a wrong current password is shown on its field.
      if (code === 'INVALID_CURRENT_PASSWORD') setErrors({ current: `error.${code}` });
      else if (code === 'PASSWORD_NOT_STRONG') setErrors({ password: `error.${code}` });
      else showError(error);
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    hideSaved();
    const next: PasswordErrors = { ...validatePasswordPair(password, repeat) };
    if (!current) next.current = 'validation.required';
    setErrors(next);
    if (hasErrors(next)) return;
    mutation.mutate({ currentPassword: current, newPassword: password });
  };

  return (
    <AccountSection
      title={<FormattedMessage id="account.password.title" />}
      status={
        <StatusBadge on={me.hasPassword} testId="account-password-status">
          <FormattedMessage id={me.hasPassword ? 'account.password.set' : 'account.password.notSet'} />
        </StatusBadge>
      }
      testId="account-password"
    >
      {me.hasPassword ? (
        <form className="form" onSubmit={onSubmit} noValidate>
          {saved ? (
            <Alert kind="success" testId="account-password-saved">
              <FormattedMessage id="account.password.saved" />
            </Alert>
          ) : null}
          <TextInputField
            labelId="account.password.current"
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(value) => {
              setCurrent(value);
              setErrors((previous) => ({ ...previous, current: undefined }));
            }}
            message={errors.current}
            testId="account-password-current"
          />
          <NewPasswordFields
            labelIds={{ password: 'account.password.new', repeat: 'account.password.repeat' }}
            password={password}
            repeat={repeat}
            onPasswordChange={setPassword}
            onRepeatChange={setRepeat}
            errors={errors}
            testIdPrefix="account-password"
          />
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={mutation.isPending} data-testid="account-password-save">
              <FormattedMessage id="account.password.save" />
            </button>
          </div>
        </form>
      ) : (
        <div className="account-text" data-testid="account-password-none">
          <p className="muted">
            <FormattedMessage id="account.password.none" />
          </p>
          <Link to="/reset-password" data-testid="account-password-reset-link">
            <FormattedMessage id="account.password.setByLink" />
          </Link>
        </div>
      )}
    </AccountSection>
  );
}
