import { DEFAULT_RESOURCE_STATUSES, type Me, type ResourceStatus } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { ME_DEFAULTS } from '../app/session/me-fixture';
import { resourceStatusLabel, resourceStatusName, resourceStatusServerError, resourceStatusValue } from './ResourceStatusSelect';

const status = (name: { et: string; en: string }, icon = 'flag'): ResourceStatus => ({
  id: 'status-1',
  name,
  description: { et: '', en: '' },
  icon,
  readOnly: false,
  rules: [],
  resettable: false,
});

function me(overrides: Partial<Me>): Me {
  const base = { id: 'u1', name: 'Mari', email: 'mari@example.ee', organizationId: 'org-a', organizationName: 'A', occupationId: 'a', lastOccupationId: null };
  return { ...base, occupations: [], ...ME_DEFAULTS, ...overrides };
}

describe('the status select of the document and budget forms', () => {
  it('names a status in the UI language, else the organisation language, else any', () => {
    expect(resourceStatusName(status({ et: 'Koostamisel', en: 'In preparation' }), 'en', 'et')).toBe('In preparation');
    expect(resourceStatusName(status({ et: 'Koostamisel', en: '' }), 'en', 'et')).toBe('Koostamisel');
    expect(resourceStatusName(status({ et: '', en: 'In review' }), 'et', 'et')).toBe('In review');
    expect(resourceStatusLabel(status({ et: 'Kinnitatud', en: '' }, 'check'), 'et', 'et')).toBe('✓ Kinnitatud');
    expect(resourceStatusLabel(status({ et: 'Muu', en: '' }, 'unknown'), 'et', 'et')).toBe('Muu');
  });

  it('requires a status only where the organisation uses statuses, and sends null otherwise', () => {
    const without = me({ organizationEnableResourceStatuses: false });
    const withStatuses = me({ organizationEnableResourceStatuses: true, resourceStatuses: [...DEFAULT_RESOURCE_STATUSES] as ResourceStatus[] });
    expect(resourceStatusValue(without, '')).toEqual({ value: null });
    expect(resourceStatusValue(without, 'status-1')).toEqual({ value: null });
    expect(resourceStatusValue(withStatuses, '')).toEqual({ value: null, error: { message: 'validation.required' } });
    expect(resourceStatusValue(withStatuses, 'status-1')).toEqual({ value: 'status-1' });
  });

  it("shows the server's message about the status field under it, and no other field's", () => {
    const required = new ApiError(400, 'SCHEMA_VALIDATION_ERROR', 'a resource status is required', [
      { path: 'body.resourceStatusId', message: 'validation.required' },
    ]);
    expect(resourceStatusServerError(required)).toEqual({ resourceStatusId: { message: 'validation.required' } });
    const unknown = new ApiError(404, 'RESOURCE_STATUS_NOT_FOUND', 'no such status', [
      { path: 'body.resourceStatusId', message: 'no such resource status in the organisation' },
    ]);
    expect(resourceStatusServerError(unknown)).toEqual({ resourceStatusId: { message: 'error.RESOURCE_STATUS_NOT_FOUND' } });
    const other = new ApiError(400, 'SCHEMA_VALIDATION_ERROR', 'bad name', [{ path: 'body.name', message: 'validation.required' }]);
    expect(resourceStatusServerError(other)).toEqual({});
  });
});
