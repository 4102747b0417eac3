import { type User, userInputSchema } from '@eelarve/shared';
import { FieldError } from '../../components/FieldError';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { errorCodeOf } from '../../api';
import { Alert } from '../../components/Alert';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { Modal } from '../../components/Modal';
import { ModalFormFooter } from '../../components/ModalFormFooter';
import { useCurrentUser } from '../../app/session';
import { canEditEmail } from './access';
import { createUser, refreshAccounts, type UserPayload, updateUser } from './api';
import { type FormErrors, issuesToErrors } from './form';

/** Add a user (a registration mail is sent) or edit one (spec 1, section 5); 480 px wide. */
export function UserModal({ user, onClose }: { user: User | null; onClose: () => void }) {
  const me = useCurrentUser();
  const organizationId = me.organizationId ?? '';
  const queryClient = useQueryClient();
  const formId = useId();
  const [name, setName] = useState(user?.name ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [errors, setErrors] = useState<FormErrors>({});
  // A new user needs an address; an existing one's address is changed only by an administrator.
  const emailEditable = user === null || canEditEmail(me);

  const save = useMutation({
    mutationFn: (payload: UserPayload) => (user ? updateUser(organizationId, user.id, payload) : createUser(organizationId, payload)),
    onSuccess: async () => {
      await refreshAccounts(queryClient, organizationId, user?.id === me.id);
      onClose();
    },
    onError: (error) => {
      if (errorCodeOf(error) === 'EMAIL_IN_USE') setErrors({ email: 'error.EMAIL_IN_USE' });
    },
  });

  const validate = (values: { name: string; email: string }) => {
    const parsed = userInputSchema.safeParse(values);
    return parsed.success ? { payload: parsed.data, errors: {} } : { payload: null, errors: issuesToErrors(parsed.error.issues) };
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const { payload, errors: found } = validate({ name, email });
    setErrors(found);
    if (payload) save.mutate(payload);
  };

  const busy = save.isPending;
  const nameId = `${formId}-name`;
  const emailId = `${formId}-email`;
  const emailHintId = `${formId}-email-hint`;

  return (
    <Modal
      title={<FormattedMessage id={user ? 'users.modal.editTitle' : 'users.modal.addTitle'} />}
      onClose={onClose}
      busy={busy}
      testId="user-modal"
      footer={<ModalFormFooter formId={formId} onCancel={onClose} busy={busy} testIdPrefix="user" />}
    >
      <form id={formId} className="form" onSubmit={onSubmit} noValidate>
        {save.isError ? (
          <ErrorAlert error={save.error} title={<FormattedMessage id="users.modal.saveFailed" />} testId="user-save-error" />
        ) : null}
        {user === null ? (
          <Alert kind="info">
            <FormattedMessage id="users.modal.invitationHint" />
          </Alert>
        ) : null}

        <FormField htmlFor={nameId} labelId="users.field.name">
          <input
            id={nameId}
            type="text"
            value={name}
            maxLength={256}
            onChange={(event) => setName(event.target.value)}
            aria-invalid={errors.name ? true : undefined}
            data-testid="user-name-input"
          />
          <FieldError message={errors.name} />
        </FormField>

        <FormField htmlFor={emailId} labelId="users.field.email">
          <input
            id={emailId}
            type="email"
            value={email}
            maxLength={256}
            disabled={!emailEditable}
            onChange={(event) => {
              setEmail(event.target.value);
              if (errors.email) setErrors((current) => ({ ...current, email: undefined }));
            }}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={emailEditable ? undefined : emailHintId}
            data-testid="user-email-input"
          />
          {emailEditable ? null : (
            <div className="field-hint" id={emailHintId} data-testid="user-email-admin-only">
              <FormattedMessage id="users.field.emailAdminOnly" />
            </div>
          )}
          <FieldError message={errors.email} />
        </FormField>
      </form>
    </Modal>
  );
}
