import { FormattedMessage } from 'react-intl';
import { YesNoField } from '../../components/form';
import type { SectionProps } from './AuthenticationFields';

/**
 * Whether the organisation uses resource statuses and may edit them. Statuses cannot be switched
 * off again once an organisation uses them (`statusesLocked`).
 */
export function ResourceStatusFields({ form, update, errors, formId, statusesLocked }: SectionProps & { statusesLocked: boolean }) {
  return (
    <>
      <YesNoField
        legend={<FormattedMessage id="organizations.field.enableResourceStatuses" />}
        hint={<FormattedMessage id="organizations.field.enableResourceStatusesHint" />}
        name={`${formId}-statuses`}
        value={form.enableResourceStatuses}
        onChange={(enableResourceStatuses) => update({ enableResourceStatuses })}
        error={errors.enableResourceStatuses}
        noDisabled={statusesLocked}
        testId="organization-resource-statuses"
      />

      <YesNoField
        legend={<FormattedMessage id="organizations.field.allowResourceStatusEditing" />}
        name={`${formId}-status-editing`}
        value={form.allowResourceStatusEditing}
        onChange={(allowResourceStatusEditing) => update({ allowResourceStatusEditing })}
        error={errors.allowResourceStatusEditing}
        testId="organization-status-editing"
      />
    </>
  );
}
