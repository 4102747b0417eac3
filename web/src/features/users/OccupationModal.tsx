import { LIMITS, type Occupation, occupationInputSchema } from '@eelarve/shared';
import { useId, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useRoles } from '../../app/organization/accounts';
import { useCurrentUser } from '../../app/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { codeFieldErrors, Field, Form, ModalFormFooter, SelectField, TextAreaField, TextField, useFieldErrors, validate } from '../../components/form';
import { Modal } from '../../components/Modal';
import { MultiSelect } from '../../components/MultiSelect';
import { Spinner } from '../../components/Spinner';
import { useLocale } from '../../i18n/I18nProvider';
import { useSaveOccupation, useUserNames } from './api';

/** Server codes that concern one field: the field is marked besides the alert. */
const FIELD_OF_ERROR: Record<string, string> = {
  UNSUITABLE_USER: 'userId',
  USER_ALREADY_ALLOCATED: 'userId',
  INVALID_USER_OR_ROLE: 'roles',
  UNSUITABLE_ROLE: 'roles',
};

/** The users and the roles an occupation may get (the admin role is not offered), sorted by name. */
function useOccupationChoices(organizationId: string) {
  const { locale } = useLocale();
  const userNames = useUserNames(organizationId);
  const roles = useRoles(organizationId);
  const userOptions = useMemo(
    () =>
      [...(userNames.data ?? [])]
        .sort((a, b) => a.name.localeCompare(b.name, locale, { sensitivity: 'base' }))
        .map((user) => ({ value: user.id, label: user.name })),
    [userNames.data, locale],
  );
  const roleOptions = useMemo(
    () =>
      (roles.data ?? [])
        .filter((role) => role.type !== 'ADMIN')
        .sort((a, b) => a.name.localeCompare(b.name, locale, { sensitivity: 'base' }))
        .map((role) => ({ value: role.id, label: role.name })),
    [roles.data, locale],
  );
  return {
    userOptions,
    roleOptions,
    loading: userNames.isPending || roles.isPending,
    loadError: userNames.isError || roles.isError ? (userNames.error ?? roles.error) : null,
  };
}

/** Add or edit an occupation: user, name, description and roles. */
export function OccupationModal({ occupation, onClose }: { occupation: Occupation | null; onClose: () => void }) {
  const intl = useIntl();
  const me = useCurrentUser();
  const organizationId = me.organizationId ?? '';
  const formId = useId();
  const [userId, setUserId] = useState(occupation?.userId ?? '');
  const [name, setName] = useState(occupation?.name ?? '');
  const [description, setDescription] = useState(occupation?.description ?? '');
  const [roleIds, setRoleIds] = useState<string[]>(occupation?.roles.map((role) => role.id) ?? []);
  const { errors, setErrors, clear } = useFieldErrors();
  const { userOptions, roleOptions, loading, loadError } = useOccupationChoices(organizationId);

  const save = useSaveOccupation(
    { organizationId, occupation, meId: me.id },
    {
      onSuccess: onClose,
      onError: (error) => setErrors(codeFieldErrors(error, FIELD_OF_ERROR)),
    },
  );

  const onSubmit = () => {
    const { data, errors: found } = validate(occupationInputSchema, { userId, name, description, roles: roleIds });
    setErrors(found);
    if (!data) return;
    save.mutate({
      userId: data.userId,
      name: data.name,
      description: data.description,
      roles: data.roles.map((role) => (typeof role === 'string' ? role : role.id)),
    });
  };

  const busy = save.isPending;
  const rolesId = `${formId}-roles`;
  const rolesHintId = `${rolesId}-hint`;

  return (
    <Modal
      title={<FormattedMessage id={occupation ? 'occupations.modal.editTitle' : 'occupations.modal.addTitle'} />}
      onClose={onClose}
      busy={busy}
      testId="occupation-modal"
      footer={<ModalFormFooter formId={formId} onCancel={onClose} busy={busy} saveDisabled={loading} testIdPrefix="occupation" />}
    >
      {loading ? (
        <Spinner />
      ) : (
        <Form id={formId} onSubmit={onSubmit}>
          {save.isError ? (
            <ErrorAlert error={save.error} title={<FormattedMessage id="occupations.modal.saveFailed" />} testId="occupation-save-error" />
          ) : null}
          {loadError ? <ErrorAlert error={loadError} title={<FormattedMessage id="occupations.modal.loadFailed" />} /> : null}

          <SelectField
            labelId="occupations.field.user"
            value={userId}
            onChange={(value) => {
              setUserId(value);
              clear('userId');
            }}
            options={userOptions}
            placeholder={intl.formatMessage({ id: 'common.select' })}
            error={errors.userId}
            testId="occupation-user-input"
          />

          <TextField
            labelId="occupations.field.name"
            value={name}
            onChange={(value) => {
              setName(value);
              clear('name');
            }}
            max={LIMITS.text}
            error={errors.name}
            testId="occupation-name-input"
          />

          <TextAreaField
            labelId="occupations.field.description"
            value={description}
            onChange={(value) => {
              setDescription(value);
              clear('description');
            }}
            max={LIMITS.textArea}
            error={errors.description}
            testId="occupation-description-input"
          />

          <Field htmlFor={rolesId} labelId="occupations.field.roles" hintId="occupations.field.rolesHint" error={errors.roles}>
            <MultiSelect
              id={rolesId}
              options={roleOptions}
              value={roleIds}
              onChange={(next) => {
                setRoleIds(next);
                clear('roles');
              }}
              placeholder={intl.formatMessage({ id: 'occupations.field.rolesPlaceholder' })}
              label={intl.formatMessage({ id: 'occupations.field.roles' })}
              invalid={Boolean(errors.roles)}
              describedBy={rolesHintId}
              testId="occupation-roles-input"
            />
          </Field>
        </Form>
      )}
    </Modal>
  );
}
