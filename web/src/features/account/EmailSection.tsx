import { emailRequestSchema } from '@eelarve/shared';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Alert } from '../../components/Alert';
import {
  type FieldErrors,
  Form,
  FormActions,
  firstMessage,
  hasErrors,
  messageOf,
  pickErrors,
  serverFieldErrors,
  TextField,
  useFieldErrors,
} from '../../components/form';
import { useToasts } from '../../components/Toasts';
import { useCurrentUser } from '../../app/session';
import { AccountSection } from './AccountSection';
import { usePendingEmail, useRequestEmailChange } from './api';

export const SAVED_MESSAGE_MS = 6_000;

/** Server answers shown on a field: the address is taken, the current password is wrong. */
const FIELD_OF_ERROR = { EMAIL_IN_USE: 'email', INVALID_CURRENT_PASSWORD: 'current' };

/**
 * The user's own e-mail: the new address and the current password. The change waits for the
 * link mailed to the new address; until then the section says where to confirm it.
 */
export function EmailSection() {
  const me = useCurrentUser();
  const { showError } = useToasts();
  const [email, setEmail] = useState(me.email);
  const [current, setCurrent] = useState('');
  const { errors, setErrors, clear } = useFieldErrors();
  const pending = usePendingEmail();

  const mutation = useRequestEmailChange({
    onSuccess: () => {
      setCurrent('');
      setEmail(me.email);
    },
    onError: (error) => {
      // The address's own issue of a refused body belongs on its field too; anything else is a toast.
      const onFields = pickErrors(serverFieldErrors(error, FIELD_OF_ERROR), ['email', 'current']);
      if (hasErrors(onFields)) setErrors(onFields);
      else showError(error);
    },
  });

  const unchanged = email.trim().toLowerCase() === me.email.toLowerCase();

  const onSubmit = () => {
    const next: FieldErrors = {
      email: messageOf(firstMessage(emailRequestSchema, { email })),
      current: messageOf(current ? undefined : 'validation.required'),
    };
    setErrors(next);
    if (hasErrors(next) || unchanged) return;
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
        <Form onSubmit={onSubmit}>
          <TextField
            labelId="account.email.field"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(value) => {
              setEmail(value);
              clear('email');
            }}
            error={errors.email}
            testId="account-email-input"
          />
          <TextField
            labelId="account.email.currentPassword"
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(value) => {
              setCurrent(value);
              clear('current');
            }}
            error={errors.current}
            testId="account-email-current"
          />
          <p className="muted">
            <FormattedMessage id="account.email.howItWorks" />
          </p>
          <FormActions>
            <button type="submit" className="button button-primary" disabled={mutation.isPending || unchanged} data-testid="account-email-save">
              <FormattedMessage id="account.email.save" />
            </button>
          </FormActions>
        </Form>
      ) : (
        <p className="muted account-text" data-testid="account-email-no-password">
          <FormattedMessage id="account.email.needsPassword" />
        </p>
      )}
    </AccountSection>
  );
}
