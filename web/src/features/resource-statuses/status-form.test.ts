import { DEFAULT_RESOURCE_STATUSES, type ResourceStatus } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { initialValues, payloadOf, validateStatus } from './status-form';

const submitted = { ...DEFAULT_RESOURCE_STATUSES[1]!, readOnly: true, resettable: false } as ResourceStatus;

describe('the resource status form', () => {
  it('requires name and description in the organisation language and an icon', () => {
    const { data, errors } = validateStatus(initialValues(null), 'en');
    expect(data).toBeNull();
    expect(Object.keys(errors).sort()).toEqual(['description.en', 'icon', 'name.en']);
  });

  it('accepts a status named only in the organisation language', () => {
    const values = { ...initialValues(null), name: { et: '', en: 'Review' }, description: { et: '', en: 'Being reviewed' }, icon: 'flag' as const };
    expect(validateStatus(values, 'en').data).toMatchObject({ name: { en: 'Review' }, icon: 'flag', rules: [] });
    expect(Object.keys(validateStatus(values, 'et').errors).sort()).toEqual(['description.et', 'name.et']);
  });

  it('sends a rule with privileges or roles, never both', () => {
    const values = initialValues(null);
    values.rules.READ_DISABLED = { on: true, override: 'roles', privileges: ['USER_ADMIN'], roles: ['9b2f4c1e-0000-4000-8000-000000000001'] };
    expect(payloadOf(values).rules).toEqual([{ type: 'READ_DISABLED', overridePrivileges: [], overrideRoles: ['9b2f4c1e-0000-4000-8000-000000000001'] }]);
  });

  it('refuses a chosen exception that names nobody', () => {
    const values = { ...initialValues(submitted) };
    values.rules.COMMENT_READ_DISABLED = { on: true, override: 'privileges', privileges: [], roles: [] };
    expect(validateStatus(values, 'et').errors['rules.COMMENT_READ_DISABLED']).toEqual({ message: 'validation.required' });
  });

  it('keeps the rules of an existing status', () => {
    expect(payloadOf(initialValues(submitted)).rules.map((rule) => rule.type)).toEqual(['RESOURCE_WRITE_DISABLED', 'METADATA_WRITE_DISABLED']);
  });
});
