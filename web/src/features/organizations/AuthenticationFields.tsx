import { type AuthenticationType, MS_PER_DAY, MS_PER_HOUR } from '@eelarve/shared';
import { FormattedMessage, useIntl } from 'react-intl';
import { CheckboxField, Field, type FieldErrors, FieldSet, YesNoField } from '../../components/form';
import { FORM_AUTHENTICATION_TYPES, type OrganizationForm } from './organization-form';

export interface SectionProps {
  form: OrganizationForm;
  update: (changes: Partial<OrganizationForm>) => void;
  errors: FieldErrors;
  /** The form's id: the fields' ids and radio names start with it. */
  formId: string;
}

/** How the organisation's users sign in: the interactive types, API usage (BASIC) and the session length. */
export function AuthenticationFields({ form, update, errors, formId }: SectionProps) {
  const intl = useIntl();
  const toggleType = (type: AuthenticationType, checked: boolean) =>
    update({
      authenticationTypes: checked
        ? FORM_AUTHENTICATION_TYPES.filter((candidate) => candidate === type || form.authenticationTypes.includes(candidate))
        : form.authenticationTypes.filter((candidate) => candidate !== type),
    });
  const sessionLengthId = `${formId}-session-length`;

  return (
    <>
      <FieldSet
        legend={<FormattedMessage id="organizations.field.authenticationTypes" />}
        error={errors.allowedAuthenticationTypes}
        testId="organization-authentication-types"
      >
        <div className="choice-row">
          {FORM_AUTHENTICATION_TYPES.map((type) => (
            <CheckboxField
              key={type}
              checked={form.authenticationTypes.includes(type)}
              onChange={(checked) => toggleType(type, checked)}
              testId={`organization-auth-${type}`}
            >
              {intl.formatMessage({ id: `authType.${type}` })}
            </CheckboxField>
          ))}
        </div>
      </FieldSet>

      <YesNoField
        legend={<FormattedMessage id="organizations.field.apiUsage" />}
        name={`${formId}-api`}
        value={form.apiUsageAllowed}
        onChange={(apiUsageAllowed) => update({ apiUsageAllowed })}
        error={errors.apiUsageAllowed}
        testId="organization-api-usage"
      />

      <Field htmlFor={sessionLengthId} labelId="organizations.field.sessionLength" error={errors.sessionLength}>
        <div className="input-group">
          <input
            id={sessionLengthId}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={form.sessionLength}
            onChange={(event) => update({ sessionLength: event.target.value })}
            aria-invalid={errors.sessionLength ? true : undefined}
            data-testid="organization-session-length"
          />
          <select
            id={`${formId}-multiplier`}
            aria-label={intl.formatMessage({ id: 'organizations.field.sessionLengthMultiplier' })}
            value={form.sessionLengthMultiplier}
            onChange={(event) => update({ sessionLengthMultiplier: Number(event.target.value) })}
            data-testid="organization-session-multiplier"
          >
            <option value={MS_PER_DAY}>{intl.formatMessage({ id: 'organizations.field.days' })}</option>
            <option value={MS_PER_HOUR}>{intl.formatMessage({ id: 'organizations.field.hours' })}</option>
          </select>
        </div>
      </Field>
    </>
  );
}
