import { LIMITS, RESOURCE_STATUS_ICONS, type ResourceStatus, type ResourceStatusLanguage, type Role } from '@eelarve/shared';
import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, ModalFormFooter, SelectField, serverFieldErrors, TextAreaField, TextField, useFieldErrors } from '../../components/form';
import { Modal } from '../../components/Modal';
import type { MessageKey } from '../../i18n/messages';
import { useSaveResourceStatus } from './api/mutations';
import { RuleFields } from './RuleFields';
import { statusIconGlyph } from '../../components/ResourceStatusSelect';
import { initialValues, type StatusValues, validateStatus } from './status-form';

const LANGUAGES: readonly ResourceStatusLanguage[] = ['et', 'en'];
const NAME_LABELS: Record<ResourceStatusLanguage, MessageKey> = { et: 'statuses.field.nameEt', en: 'statuses.field.nameEn' };
const DESCRIPTION_LABELS: Record<ResourceStatusLanguage, MessageKey> = { et: 'statuses.field.descriptionEt', en: 'statuses.field.descriptionEn' };

/** The resource status form (spec 1, sections 4 and 5): add (status null) or edit; a default status keeps its rules. */
export function StatusModal({
  status,
  roles,
  organizationLanguage,
  onClose,
}: {
  status: ResourceStatus | null;
  roles: readonly Role[];
  organizationLanguage: ResourceStatusLanguage;
  onClose: () => void;
}) {
  const intl = useIntl();
  const formId = useId();
  const [values, setValues] = useState<StatusValues>(() => initialValues(status));
  const { errors, setErrors, clear } = useFieldErrors();
  const save = useSaveResourceStatus({ onSuccess: onClose, onError: (error) => setErrors(serverFieldErrors(error)) });
  const readOnlyRules = status?.readOnly ?? false;

  const setText = (field: 'name' | 'description', language: ResourceStatusLanguage, text: string) => {
    setValues((current) => ({ ...current, [field]: { ...current[field], [language]: text } }));
    clear(`${field}.${language}`);
  };

  const onSubmit = () => {
    const { data, errors: found } = validateStatus(values, organizationLanguage);
    setErrors(found);
    if (data) save.mutate({ id: status?.id ?? null, fields: data });
  };

  const iconOptions = RESOURCE_STATUS_ICONS.map((icon) => ({
    value: icon,
    label: `${statusIconGlyph(icon)} ${intl.formatMessage({ id: `statuses.icon.${icon}` as MessageKey })}`,
  }));

  return (
    <Modal
      title={<FormattedMessage id={status ? 'statuses.form.editTitle' : 'statuses.form.addTitle'} />}
      onClose={onClose}
      width={640}
      busy={save.isPending}
      testId="status-modal"
      footer={<ModalFormFooter formId={formId} onCancel={onClose} busy={save.isPending} testIdPrefix="status-form" />}
    >
      <Form id={formId} onSubmit={onSubmit} className="status-form">
        {save.isError ? <ErrorAlert error={save.error} title={<FormattedMessage id="statuses.form.saveFailed" />} testId="status-form-error" /> : null}
        {LANGUAGES.map((language) => (
          <TextField
            key={`name-${language}`}
            labelId={NAME_LABELS[language]}
            value={values.name[language]}
            onChange={(text) => setText('name', language, text)}
            max={LIMITS.text}
            error={errors[`name.${language}`]}
            testId={`status-name-${language}`}
          />
        ))}
        {LANGUAGES.map((language) => (
          <TextAreaField
            key={`description-${language}`}
            labelId={DESCRIPTION_LABELS[language]}
            value={values.description[language]}
            onChange={(text) => setText('description', language, text)}
            max={LIMITS.textArea}
            error={errors[`description.${language}`]}
            testId={`status-description-${language}`}
          />
        ))}
        <SelectField
          labelId="statuses.field.icon"
          value={values.icon}
          onChange={(icon) => {
            setValues((current) => ({ ...current, icon: icon as StatusValues['icon'] }));
            clear('icon');
          }}
          options={iconOptions}
          placeholder={intl.formatMessage({ id: 'common.select' })}
          error={errors.icon}
          testId="status-icon"
        />
        <RuleFields
          rules={values.rules}
          onChange={(type, rule) => {
            setValues((current) => ({ ...current, rules: { ...current.rules, [type]: rule } }));
            clear(`rules.${type}`);
          }}
          roles={roles}
          readOnly={readOnlyRules}
          errors={errors}
        />
      </Form>
    </Modal>
  );
}
