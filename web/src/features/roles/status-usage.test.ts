import type { ResourceStatus } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { removedFromStatuses, statusesUsingRole } from './status-usage';

const status = (id: string, name: { et: string; en: string }, overrideRoles: string[][]): ResourceStatus => ({
  id,
  name,
  description: { et: '', en: '' },
  icon: 'flag',
  readOnly: false,
  rules: overrideRoles.map((roles, index) => ({
    type: index === 0 ? 'READ_DISABLED' : 'RESOURCE_WRITE_DISABLED',
    overridePrivileges: [],
    overrideRoles: roles,
  })),
  resettable: false,
});

describe('statuses that use a role', () => {
  const statuses = [
    status('s1', { et: 'Lukus', en: 'Locked' }, [['r1'], []]),
    status('s2', { et: 'Peidetud', en: '' }, [[], ['r2', 'r1']]),
    status('s3', { et: 'Avatud', en: 'Open' }, [['r2']]),
  ];

  it('names every status with the role in any rule, in the UI language, else the organisation language', () => {
    expect(statusesUsingRole(statuses, 'r1', 'en', 'et')).toEqual(['Locked', 'Peidetud']);
    expect(statusesUsingRole(statuses, 'r2', 'et', 'et')).toEqual(['Peidetud', 'Avatud']);
    expect(statusesUsingRole(statuses, 'r3', 'et', 'et')).toEqual([]);
  });

  it('reads the delete answer: only the warning about statuses counts', () => {
    expect(removedFromStatuses({ id: 'r1', position: '1', warnings: [{ code: 'ROLE_REMOVED_FROM_RESOURCE_STATUSES', resourceStatusIds: ['s1'] }] })).toBe(true);
    expect(removedFromStatuses({ id: 'r1', position: '1' })).toBe(false);
    expect(removedFromStatuses(undefined)).toBe(false);
  });
});
