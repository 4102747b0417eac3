import { type AuthenticationType, MS_PER_DAY, MS_PER_HOUR, type Organization } from '@eelarve/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { isApiError } from '../../api';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FieldError } from '../../components/FieldError';
import { FormField } from '../../components/FormField';
import { Modal } from '../../components/Modal';
import { ModalFormFooter } from '../../components/ModalFormFooter';
import { Spinner } from '../../components/Spinner';
import { isMessageKey } from '../../i18n/messages';
import { ME_QUERY_KEY, useCurrentUser } from '../../app/session';
import {
  createOrganization,
  fetchLocales,
  LOCALES_QUERY_KEY,
  type LocalesResponse,
  type OrganizationPayload,
  organizationKeys,
  updateOrganization,
} from './api';
import {
  DISABLED_LOCALE_SETTINGS,
  defaultSettingsFor,
  emptyForm,
  FORM_AUTHENTICATION_TYPES,
  type FieldErrors,
  formFromOrganization,
  localesOrDefaults,
  type OrganizationForm,
  serverFieldErrors,
  validateForm,
} from './form';

/** Add or edit an organisation (spec 1, section 5); `organization` null means add. */
export function OrganizationModal({ organization, onClose }: { organization: Organization | null; onClose: () => void }) {
  const localesQuery = useQuery({ queryKey: LOCALES_QUERY_KEY, queryFn: fetchLocales });
  const title = organization ? 'organizations.modal.editTitle' : 'organizations.modal.addTitle';

  if (localesQuery.isPending) {
    return (
      <Modal title={<FormattedMessage id={title} />} onClose={onClose} testId="organization-modal">
        <Spinner />
      </Modal>
    );
  }

  return (
    <OrganizationFormModal
      organization={organization}
      onClose={onClose}
      locales={localesOrDefaults(localesQuery.data)}
      localesError={localesQuery.isError ? localesQuery.error : null}
    />
  );
}

function OrganizationFormModal({
  organization,
  onClose,
  locales,
  localesError,
}: {
  organization: Organization | null;
  onClose: () => void;
  locales: LocalesResponse;
  localesError: unknown;
}) {
  const intl = useIntl();
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const formId = useId();
  const [form, setForm] = useState<OrganizationForm>(() =>
    organization ? formFromOrganization(organization, locales) : emptyForm(locales),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitted, setSubmitted] = useState(false);

  const save = useMutation({
    mutationFn: (payload: OrganizationPayload) =>
      organization ? updateOrganization(organization.id, payload) : createOrganization(payload),
    onSuccess: async () => {
      const refreshes = [queryClient.invalidateQueries({ queryKey: organizationKeys.all })];
      // The header and menu show the user's own organisation: reload the user when it changed.
      if (organization && organization.id === me.organizationId) {
        refreshes.push(queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY }));
      }
      await Promise.all(refreshes);
      onClose();
    },
    onError: (error) => {
      if (isApiError(error) && error.code === 'SCHEMA_VALIDATION_ERROR') setErrors(serverFieldErrors(error));
    },
  });

  const update = (changes: Partial<OrganizationForm>) => {
    const next = { ...form, ...changes };
    setForm(next);
    // After the first save attempt the messages follow the input.
    if (submitted) setErrors(validateForm(next).errors);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const { payload, errors: found } = validateForm(form);
    setErrors(found);
    if (payload) save.mutate(payload);
  };

  const toggleType = (type: AuthenticationType, checked: boolean) =>
    update({
      authenticationTypes: checked
        ? FORM_AUTHENTICATION_TYPES.filter((candidate) => candidate === type || form.authenticationTypes.includes(candidate))
        : form.authenticationTypes.filter((candidate) => candidate !== type),
    });

  // Spec 1, section 4: choosing a locale fills the settings with that locale's defaults.
  const changeLocale = (localeCode: string) => update({ localeCode, localeSettings: defaultSettingsFor(locales, localeCode) });

  const optionLabel = (setting: string, option: string) => {
    const key = `localeSetting.${setting}.${option}`;
    return isMessageKey(key) ? intl.formatMessage({ id: key }) : option;
  };
  const settingLabel = (setting: string) => {
    const key = `localeSetting.${setting}`;
    return isMessageKey(key) ? intl.formatMessage({ id: key }) : setting;
  };
  const localeLabel = (code: string) => {
    const key = `locale.${code}`;
    return isMessageKey(key) ? intl.formatMessage({ id: key }) : code;
  };

  // Resource statuses cannot be switched off again once an organisation uses them.
  const statusesLocked = organization?.enableResourceStatuses === true;
  const busy = save.isPending;
  const ids = useMemo(
    () => ({
      name: `${formId}-name`,
      sessionLength: `${formId}-session-length`,
      multiplier: `${formId}-multiplier`,
      localeCode: `${formId}-locale`,
    }),
    [formId],
  );

  return (
    <Modal
      title={<FormattedMessage id={organization ? 'organizations.modal.editTitle' : 'organizations.modal.addTitle'} />}
      onClose={onClose}
      busy={busy}
      testId="organization-modal"
      footer={<ModalFormFooter formId={formId} onCancel={onClose} busy={busy} testIdPrefix="organization" />}
    >
      <form id={formId} className="form" onSubmit={onSubmit} noValidate>
        {save.isError ? (
          <ErrorAlert
            error={save.error}
            title={<FormattedMessage id="organizations.modal.saveFailed" />}
            testId="organization-save-error"
          />
        ) : null}
        {localesError ? (
          <ErrorAlert error={localesError} title={<FormattedMessage id="organizations.modal.localesFailed" />} />
        ) : null}

        <FormField htmlFor={ids.name} labelId="organizations.field.name">
          <input
            id={ids.name}
            type="text"
            value={form.name}
            onChange={(event) => update({ name: event.target.value })}
            aria-invalid={errors.name ? true : undefined}
            data-testid="organization-name"
          />
          <FieldError message={errors.name?.message} values={errors.name?.values} />
        </FormField>

        <FieldSet
          legend={<FormattedMessage id="organizations.field.authenticationTypes" />}
          error={errors.allowedAuthenticationTypes}
          testId="organization-authentication-types"
        >
          <div className="choice-row">
            {FORM_AUTHENTICATION_TYPES.map((type) => (
              <label key={type} className="checkbox">
                <input
                  type="checkbox"
                  checked={form.authenticationTypes.includes(type)}
                  onChange={(event) => toggleType(type, event.target.checked)}
                  data-testid={`organization-auth-${type}`}
                />
                {intl.formatMessage({ id: `authType.${type}` })}
              </label>
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

        <FormField htmlFor={ids.sessionLength} labelId="organizations.field.sessionLength">
          <div className="input-group">
            <input
              id={ids.sessionLength}
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
              id={ids.multiplier}
              aria-label={intl.formatMessage({ id: 'organizations.field.sessionLengthMultiplier' })}
              value={form.sessionLengthMultiplier}
              onChange={(event) => update({ sessionLengthMultiplier: Number(event.target.value) })}
              data-testid="organization-session-multiplier"
            >
              <option value={MS_PER_DAY}>{intl.formatMessage({ id: 'organizations.field.days' })}</option>
              <option value={MS_PER_HOUR}>{intl.formatMessage({ id: 'organizations.field.hours' })}</option>
            </select>
          </div>
          <FieldError message={errors.sessionLength?.message} values={errors.sessionLength?.values} />
        </FormField>

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

        <FormField htmlFor={ids.localeCode} labelId="organizations.field.localeCode">
          <select
            id={ids.localeCode}
            value={form.localeCode}
            onChange={(event) => changeLocale(event.target.value)}
            aria-invalid={errors.localeCode ? true : undefined}
            data-testid="organization-locale-code"
          >
            <option value="" disabled>
              {intl.formatMessage({ id: 'common.select' })}
            </option>
            {locales.locales.map((locale) => (
              <option key={locale.code} value={locale.code}>
                {localeLabel(locale.code)}
              </option>
            ))}
          </select>
          <FieldError message={errors.localeCode?.message} values={errors.localeCode?.values} />
        </FormField>

        <FieldSet legend={<FormattedMessage id="organizations.field.localeSettings" />} testId="organization-locale-settings">
          <div className="settings-grid">
            {locales.localeSettings.map((setting) => {
              const id = `${formId}-setting-${setting.name}`;
              const error = errors[`localeSettings.${setting.name}`] ?? errors.localeSettings;
              const disabledOptions = DISABLED_LOCALE_SETTINGS.includes(setting.name);
              return (
                <div key={setting.name} className="field">
                  <label htmlFor={id}>{settingLabel(setting.name)}</label>
                  <select
                    id={id}
                    value={form.localeSettings[setting.name] ?? ''}
                    onChange={(event) => update({ localeSettings: { ...form.localeSettings, [setting.name]: event.target.value } })}
                    aria-invalid={error ? true : undefined}
                    data-testid={`organization-locale-setting-${setting.name}`}
                  >
                    <option value="" disabled>
                      {intl.formatMessage({ id: 'common.select' })}
                    </option>
                    {setting.options.map((option) => (
                      <option key={option} value={option} disabled={disabledOptions}>
                        {optionLabel(setting.name, option)}
                      </option>
                    ))}
                  </select>
                  <FieldError message={error?.message} values={error?.values} />
                </div>
              );
            })}
          </div>
        </FieldSet>
      </form>
    </Modal>
  );
}

function FieldSet({
  legend,
  hint,
  error,
  testId,
  children,
}: {
  legend: ReactNode;
  hint?: ReactNode;
  error?: FieldErrors[string];
  testId?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className="field fieldset" data-testid={testId} aria-invalid={error ? true : undefined}>
      <legend>{legend}</legend>
      {children}
      {hint ? <div className="field-hint">{hint}</div> : null}
      <FieldError message={error?.message} values={error?.values} />
    </fieldset>
  );
}

function YesNoField({
  legend,
  hint,
  name,
  value,
  onChange,
  error,
  noDisabled = false,
  testId,
}: {
  legend: ReactNode;
  hint?: ReactNode;
  name: string;
  value: boolean | null;
  onChange: (value: boolean) => void;
  error?: FieldErrors[string];
  noDisabled?: boolean;
  testId: string;
}) {
  return (
    <FieldSet legend={legend} hint={hint} error={error} testId={testId}>
      <div className="choice-row">
        <label className="radio">
          <input type="radio" name={name} checked={value === true} onChange={() => onChange(true)} data-testid={`${testId}-yes`} />
          <FormattedMessage id="common.yes" />
        </label>
        <label className="radio">
          <input
            type="radio"
            name={name}
            checked={value === false}
            disabled={noDisabled}
            onChange={() => onChange(false)}
            data-testid={`${testId}-no`}
          />
          <FormattedMessage id="common.no" />
        </label>
      </div>
    </FieldSet>
  );
}
