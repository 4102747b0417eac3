import { MS_PER_DAY, MS_PER_HOUR, type Organization } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { emptyForm, formFromOrganization, localesOrDefaults, type OrganizationForm, validateForm } from './organization-form';

const locales = localesOrDefaults(undefined);

function filled(changes: Partial<OrganizationForm> = {}): OrganizationForm {
  return {
    ...emptyForm(locales),
    name: '  Tartu Linnavalitsus ',
    authenticationTypes: ['LOGIN'],
    apiUsageAllowed: true,
    sessionLength: '8',
    sessionLengthMultiplier: MS_PER_HOUR,
    enableResourceStatuses: false,
    allowResourceStatusEditing: false,
    ...changes,
  };
}

describe('organisation form', () => {
  it('starts a new organisation with the default locale and its settings, questions unanswered', () => {
    const form = emptyForm(locales);
    expect(form.localeCode).toBe('et');
    expect(form.localeSettings.language).toBe('et');
    expect(form.apiUsageAllowed).toBeNull();
    expect(form.sessionLengthMultiplier).toBe(MS_PER_DAY);
  });

  it('reports every missing answer with the shared messages', () => {
    const { payload, errors } = validateForm(emptyForm(locales));
    expect(payload).toBeNull();
    expect(errors.name?.message).toBe('validation.required');
    expect(errors.allowedAuthenticationTypes?.message).toBe('validation.authenticationTypeRequired');
    expect(errors.apiUsageAllowed?.message).toBe('validation.required');
    expect(errors.sessionLength?.message).toBe('validation.required');
    expect(errors.enableResourceStatuses?.message).toBe('validation.required');
    expect(errors.allowResourceStatusEditing?.message).toBe('validation.required');
  });

  it('builds the payload: API usage is the BASIC type, the name is trimmed', () => {
    const { payload, errors } = validateForm(filled());
    expect(errors).toEqual({});
    expect(payload).toMatchObject({
      name: 'Tartu Linnavalitsus',
      allowedAuthenticationTypes: ['LOGIN', 'BASIC'],
      apiUsageAllowed: true,
      sessionLength: 8,
      sessionLengthMultiplier: MS_PER_HOUR,
      localeCode: 'et',
    });
  });

  it('limits the session length to 180 days and wants whole numbers', () => {
    expect(validateForm(filled({ sessionLength: '181', sessionLengthMultiplier: MS_PER_DAY })).errors.sessionLength?.message).toBe(
      'validation.sessionLengthMax',
    );
    expect(validateForm(filled({ sessionLength: '180', sessionLengthMultiplier: MS_PER_DAY })).errors).toEqual({});
    expect(validateForm(filled({ sessionLength: '1.5' })).errors.sessionLength?.message).toBe('validation.number');
    expect(validateForm(filled({ sessionLength: '0' })).errors.sessionLength).toMatchObject({ message: 'validation.min', values: { min: '1' } });
  });

  it('requires every locale setting', () => {
    const form = filled();
    form.localeSettings = { ...form.localeSettings, dateFormat: '' };
    expect(validateForm(form).errors['localeSettings.dateFormat']?.message).toBe('validation.required');
  });

  it('edits an organisation without showing BASIC among the interactive types', () => {
    const organization: Organization = {
      id: 'o1',
      name: 'Anija',
      createdAt: '2025-01-01T00:00:00.000Z',
      nrOfUsers: null,
      localeCode: 'en',
      localeSettings: { language: 'en' },
      enableResourceStatuses: true,
      allowResourceStatusEditing: false,
      allowedAuthenticationTypes: ['LOGIN', 'BASIC'],
      apiUsageAllowed: true,
      sessionLength: 12,
      sessionLengthMultiplier: MS_PER_HOUR,
      isPlatform: false,
    };
    const form = formFromOrganization(organization, locales);
    expect(form.authenticationTypes).toEqual(['LOGIN']);
    expect(form.sessionLength).toBe('12');
    expect(form.localeSettings.language).toBe('en');
    expect(form.localeSettings.decimalPlaces).toBe('2');
  });
});
