import {
  AUTHENTICATION_TYPES,
  type AuthenticationType,
  DEFAULT_LOCALE,
  LOCALE_SETTINGS,
  LOCALES,
  MS_PER_DAY,
  MS_PER_HOUR,
  type Organization,
  organizationInputSchema,
} from '@eelarve/shared';
import { type FieldErrors, validate } from '../../components/form';
import type { LocalesResponse, OrganizationPayload } from './api';

/** The interactive authentication types of the form; BASIC is the separate "API usage" question. */
export const FORM_AUTHENTICATION_TYPES = AUTHENTICATION_TYPES.filter((type) => type !== 'BASIC');

/** Settings whose options are shown but cannot be chosen in the form (spec 1, section 5). */
export const DISABLED_LOCALE_SETTINGS: readonly string[] = ['presetResourceStatusIds'];

export interface OrganizationForm {
  name: string;
  authenticationTypes: AuthenticationType[];
  apiUsageAllowed: boolean | null;
  /** As typed; parsed to an integer on validation. */
  sessionLength: string;
  sessionLengthMultiplier: number;
  enableResourceStatuses: boolean | null;
  allowResourceStatusEditing: boolean | null;
  localeCode: string;
  localeSettings: Record<string, string>;
}

/** The locales served by the API, or the shared defaults while they are unavailable. */
export function localesOrDefaults(response: LocalesResponse | undefined): LocalesResponse {
  if (response && response.locales.length > 0) return response;
  return {
    locales: LOCALES.map((locale) => ({ code: locale.code, defaultSettings: { ...locale.defaultSettings } })),
    localeSettings: LOCALE_SETTINGS.map((setting) => ({ name: setting.name, options: [...setting.options] })),
  };
}

export function defaultSettingsFor(locales: LocalesResponse, code: string): Record<string, string> {
  return { ...(locales.locales.find((locale) => locale.code === code)?.defaultSettings ?? {}) };
}

/**
 * A new organisation: the yes/no questions start unanswered on purpose (enabling resource
 * statuses cannot be undone), the locale starts as the default one with its default settings.
 */
export function emptyForm(locales: LocalesResponse): OrganizationForm {
  const localeCode = locales.locales.some((locale) => locale.code === DEFAULT_LOCALE) ? DEFAULT_LOCALE : (locales.locales[0]?.code ?? '');
  return {
    name: '',
    authenticationTypes: [],
    apiUsageAllowed: null,
    sessionLength: '',
    sessionLengthMultiplier: MS_PER_DAY,
    enableResourceStatuses: null,
    allowResourceStatusEditing: null,
    localeCode,
    localeSettings: defaultSettingsFor(locales, localeCode),
  };
}

export function formFromOrganization(organization: Organization, locales: LocalesResponse): OrganizationForm {
  return {
    name: organization.name,
    authenticationTypes: organization.allowedAuthenticationTypes.filter((type) => type !== 'BASIC'),
    apiUsageAllowed: organization.apiUsageAllowed,
    sessionLength: String(organization.sessionLength),
    sessionLengthMultiplier: organization.sessionLengthMultiplier === MS_PER_HOUR ? MS_PER_HOUR : MS_PER_DAY,
    enableResourceStatuses: organization.enableResourceStatuses,
    allowResourceStatusEditing: organization.allowResourceStatusEditing,
    localeCode: organization.localeCode,
    localeSettings: { ...defaultSettingsFor(locales, organization.localeCode), ...organization.localeSettings },
  };
}

/** What the shared schema is given: unanswered questions are left out so they fail as required. */
export function toCandidate(form: OrganizationForm): Record<string, unknown> {
  const trimmed = form.sessionLength.trim();
  return {
    name: form.name,
    allowedAuthenticationTypes: [...form.authenticationTypes, ...(form.apiUsageAllowed ? (['BASIC'] as const) : [])],
    apiUsageAllowed: form.apiUsageAllowed ?? undefined,
    sessionLength: trimmed === '' ? undefined : Number(trimmed),
    sessionLengthMultiplier: form.sessionLengthMultiplier,
    enableResourceStatuses: form.enableResourceStatuses ?? undefined,
    allowResourceStatusEditing: form.allowResourceStatusEditing ?? undefined,
    localeCode: form.localeCode === '' ? undefined : form.localeCode,
    localeSettings: Object.fromEntries(Object.entries(form.localeSettings).filter(([, value]) => value !== '')),
  };
}

/** Validates with the same zod schema as the server (spec 1, section 5). */
export function validateForm(form: OrganizationForm): { payload: OrganizationPayload | null; errors: FieldErrors } {
  const candidate = toCandidate(form);
  const { data, errors } = validate(organizationInputSchema, candidate, (issue, key) => {
    // An empty number field is "required", not "invalid number"; so is a missing settings object.
    if (key === 'sessionLength' && candidate.sessionLength === undefined) return 'validation.required';
    if (key === 'localeSettings' && issue.code === 'invalid_type') return 'validation.required';
    return issue.message;
  });
  return { payload: data, errors };
}
