import { LIMITS, type Occupation, occupationInputSchema } from '@eelarve/shared';
import { FieldError } from '../../components/FieldError';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { errorCodeOf } from '../../api';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField, TextAreaField, TextField } from '../../components/FormField';
import { Modal } from '../../components/Modal';
import { ModalFormFooter } from '../../components/ModalFormFooter';
import { Spinner } from '../../components/Spinner';
import { useLocale } from '../../i18n/I18nProvider';
import { useCurrentUser } from '../../app/session';
import { fetchRoles, roleKeys } from '../roles/api';
import { MultiSelect } from '../../components/MultiSelect';
import {
  createOccupation,
  fetchUserNames,
  type OccupationPayload,
  refreshAccounts,
  updateOccupation,
  userKeys,
} from './api';
import { type FormErrors, issuesToErrors } from './form';

/** Server codes that concern one field: the field is marked besides the alert. */
const FIELD_OF_ERROR: Record<string, string> = {
  UNSUITABLE_USER: 'userId',
  USER_ALREADY_ALLOCATED: 'userId',
  INVALID_USER_OR_ROLE: 'roles',
  UNSUITABLE_ROLE: 'roles',
};

/** Add or edit an occupation: user, name, description and roles (the admin role is not offered). */
export function OccupationModal({ occupation, onClose }: { occupation: Occupation | null; onClose: () => void }) {
  const intl = useIntl();
  const { locale } = useLocale();
  const me = useCurrentUser();
  const organizationId = me.organizationId ?? '';
  const queryClient = useQueryClient();
  const formId = useId();
  const [userId, setUserId] = useState(occupation?.userId ?? '');
  const [name, setName] = useState(occupation?.name ?? '');
  const [description, setDescription] = useState(occupation?.description ?? '');
  const [roleIds, setRoleIds] = useState<string[]>(occupation?.roles.map((role) => role.id) ?? []);
  const [errors, setErrors] = useState<FormErrors>({});

  const userNames = useQuery({ queryKey: userKeys.names(organizationId), queryFn: () => fetchUserNames(organizationId) });
  const roles = useQuery({ queryKey: roleKeys.list(organizationId), queryFn: () => fetchRoles(organizationId) });

  const userOptions = useMemo(
    () => [...(userNames.data ?? [])].sort((a, b) => a.name.localeCompare(b.name, locale, { sensitivity: 'base' })),
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

  const save = useMutation({
    mutationFn: (payload: OccupationPayload) =>
      occupation ? updateOccupation(organizationId, occupation.id, payload) : createOccupation(organizationId, payload),
    onSuccess: async (_result, payload) => {
      await refreshAccounts(queryClient, organizationId, payload.userId === me.id || occupation?.userId === me.id);
      onClose();
    },
    onError: (error) => {
      const field = FIELD_OF_ERROR[errorCodeOf(error)];
      if (field) setErrors({ [field]: `error.${errorCodeOf(error)}` });
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = occupationInputSchema.safeParse({ userId, name, description, roles: roleIds });
    if (!parsed.success) {
      setErrors(issuesToErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    save.mutate({
      userId: parsed.data.userId,
      name: parsed.data.name,
      description: parsed.data.description,
      roles: parsed.data.roles.map((role) => (typeof role === 'string' ? role : role.id)),
    });
  };

  const clear = (field: string) => {
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const busy = save.isPending;
  const loading = userNames.isPending || roles.isPending;
  const ids = {
    user: `${formId}-user`,
    name: `${formId}-name`,
    description: `${formId}-description`,
    roles: `${formId}-roles`,
    rolesHint: `${formId}-roles-hint`,
  };

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
        <form id={formId} className="form" onSubmit={onSubmit} noValidate>
          {save.isError ? (
            <ErrorAlert error={save.error} title={<FormattedMessage id="occupations.modal.saveFailed" />} testId="occupation-save-error" />
          ) : null}
          {userNames.isError || roles.isError ? (
            <ErrorAlert error={userNames.error ?? roles.error} title={<FormattedMessage id="occupations.modal.loadFailed" />} />
          ) : null}

          <FormField htmlFor={ids.user} labelId="occupations.field.user">
            <select
              id={ids.user}
              value={userId}
              onChange={(event) => {
                setUserId(event.target.value);
                clear('userId');
              }}
              aria-invalid={errors.userId ? true : undefined}
              data-testid="occupation-user-input"
            >
              <option value="" disabled>
                {intl.formatMessage({ id: 'common.select' })}
              </option>
              {userOptions.map((user) => (
                <option key={user.id} value={user.id}>
                  {user.name}
                </option>
              ))}
            </select>
            <FieldError message={errors.userId} />
          </FormField>

          <TextField
            id={ids.name}
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
            id={ids.description}
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

          <FormField htmlFor={ids.roles} labelId="occupations.field.roles">
            <MultiSelect
              id={ids.roles}
              options={roleOptions}
              value={roleIds}
              onChange={(next) => {
                setRoleIds(next);
                clear('roles');
              }}
              placeholder={intl.formatMessage({ id: 'occupations.field.rolesPlaceholder' })}
              label={intl.formatMessage({ id: 'occupations.field.roles' })}
              invalid={Boolean(errors.roles)}
              describedBy={ids.rolesHint}
              testId="occupation-roles-input"
            />
            <div className="field-hint" id={ids.rolesHint}>
              <FormattedMessage id="occupations.field.rolesHint" />
            </div>
            <FieldError message={errors.roles} />
          </FormField>
        </form>
      )}
    </Modal>
  );
}
