import { type User, userInputSchema } from '@eelarve/shared';
import { useId, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useCurrentUser } from '../../app/session';
import { Alert } from '../../components/Alert';
import { ErrorAlert } from '../../components/ErrorAlert';
import { codeFieldErrors, Form, hasErrors, ModalFormFooter, TextField, useFieldErrors, validate } from '../../components/form';
import { Modal } from '../../components/Modal';
import { canEditEmail } from './access';
import { useSaveUser } from './api';

/** Add a user (a registration mail is sent) or edit one (spec 1, section 5); 480 px wide. */
export function UserModal({ user, onClose }: { user: User | null; onClose: () => void }) {
  const me = useCurrentUser();
  const organizationId = me.organizationId ?? '';
  const formId = useId();
  const [name, setName] = useState(user?.name ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const { errors, setErrors, clear } = useFieldErrors();
  // A new user needs an address; an existing one's address is changed only by an administrator.
  const emailEditable = user === null || canEditEmail(me);

  const save = useSaveUser(
    { organizationId, userId: user?.id ?? null, touchesMe: user?.id === me.id },
    {
      onSuccess: onClose,
      onError: (error) => {
        const onEmail = codeFieldErrors(error, { EMAIL_IN_USE: 'email' });
        if (hasErrors(onEmail)) setErrors(onEmail);
      },
    },
  );

  const onSubmit = () => {
    const { data, errors: found } = validate(userInputSchema, { name, email });
    setErrors(found);
    if (data) save.mutate(data);
  };

  const busy = save.isPending;

  return (
    <Modal
      title={<FormattedMessage id={user ? 'users.modal.editTitle' : 'users.modal.addTitle'} />}
      onClose={onClose}
      busy={busy}
      testId="user-modal"
      footer={<ModalFormFooter formId={formId} onCancel={onClose} busy={busy} testIdPrefix="user" />}
    >
      <Form id={formId} onSubmit={onSubmit}>
        {save.isError ? <ErrorAlert error={save.error} title={<FormattedMessage id="users.modal.saveFailed" />} testId="user-save-error" /> : null}
        {user === null ? (
          <Alert kind="info">
            <FormattedMessage id="users.modal.invitationHint" />
          </Alert>
        ) : null}

        <TextField labelId="users.field.name" value={name} max={256} onChange={setName} error={errors.name} testId="user-name-input" />

        <TextField
          labelId="users.field.email"
          type="email"
          value={email}
          max={256}
          disabled={!emailEditable}
          onChange={(value) => {
            setEmail(value);
            clear('email');
          }}
          error={errors.email}
          hintId={emailEditable ? undefined : 'users.field.emailAdminOnly'}
          hintTestId="user-email-admin-only"
          describedByHint
          testId="user-email-input"
        />
      </Form>
    </Modal>
  );
}
