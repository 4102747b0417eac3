import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router';
import { useCurrentUser } from '../../app/session';
import { Alert } from '../../components/Alert';
import { type FieldErrors, Form, FormActions, hasErrors, messageOf, pickErrors, serverFieldErrors, TextField, useFieldErrors } from '../../components/form';
import { NewPasswordFields } from '../../components/password/NewPasswordFields';
import { validateNewPassword } from '../../components/password/new-password';
import { useToasts } from '../../components/Toasts';
import { useTemporaryFlag } from '../../components/useTemporaryFlag';
import { AccountSection, StatusBadge } from './AccountSection';
import { useChangePassword } from './api';
import { SAVED_MESSAGE_MS } from './EmailSection';

/** Spec 1, section 8: a wrong current password is shown on its field, a weak new one on its own. */
const FIELD_OF_ERROR = { INVALID_CURRENT_PASSWORD: 'current', PASSWORD_NOT_STRONG: 'password' };

/** Current password, new password and its repeat (spec 1, section 5). */
export function PasswordSection() {
  const me = useCurrentUser();
  const { showError } = useToasts();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const { errors, setErrors, clear } = useFieldErrors();
  const [saved, showSaved, hideSaved] = useTemporaryFlag(SAVED_MESSAGE_MS);

  const mutation = useChangePassword({
    onSuccess: () => {
      setCurrent('');
      setPassword('');
      setRepeat('');
      showSaved();
    },
    onError: (error) => {
      const onFields = pickErrors(serverFieldErrors(error, FIELD_OF_ERROR), ['current', 'password']);
      if (hasErrors(onFields)) setErrors(onFields);
      else showError(error);
    },
  });

  const onSubmit = () => {
    hideSaved();
    const next: FieldErrors = { ...validateNewPassword(password, repeat) };
    if (!current) next.current = messageOf('validation.required');
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
        <Form onSubmit={onSubmit}>
          {saved ? (
            <Alert kind="success" testId="account-password-saved">
              <FormattedMessage id="account.password.saved" />
            </Alert>
          ) : null}
          <TextField
            labelId="account.password.current"
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(value) => {
              setCurrent(value);
              clear('current');
            }}
            error={errors.current}
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
          <FormActions>
            <button type="submit" className="button button-primary" disabled={mutation.isPending} data-testid="account-password-save">
              <FormattedMessage id="account.password.save" />
            </button>
          </FormActions>
        </Form>
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
