import type { Me } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { ME_DEFAULTS } from '../../app/session/me-fixture';
import { canEditEmail, canEditUsers, canRemoveAuthMethods, holdsAdminOccupation } from './access';

function me(privileges: string[], occupationType: 'ADMIN' | 'DEFAULT' = 'DEFAULT'): Me {
  return {
    id: 'user-1',
    name: 'Mari',
    email: 'mari@example.ee',
    organizationId: 'org-1',
    organizationName: 'Org',
    occupationId: 'occ-1',
    lastOccupationId: 'occ-1',
    occupations: [
      { id: 'occ-1', name: 'Juht', type: occupationType, organizationId: 'org-1', organizationName: 'Org', allowedAuthenticationTypes: ['LOGIN'] },
      { id: 'occ-2', name: 'Admin', type: 'ADMIN', organizationId: 'org-2', organizationName: 'Other', allowedAuthenticationTypes: ['LOGIN'] },
    ],
    ...ME_DEFAULTS,
    privileges,
  };
}

describe('users area access', () => {
  it('edits users only with USER_ADMIN', () => {
    expect(canEditUsers(me(['USER_VIEW']))).toBe(false);
    expect(canEditUsers(me(['USER_ADMIN']))).toBe(true);
  });

  it('lets only an administrator change e-mail: IS_ADMIN or the current ADMIN occupation', () => {
    expect(canEditEmail(me(['USER_ADMIN']))).toBe(false);
    expect(canEditEmail(me(['USER_ADMIN', 'IS_ADMIN']))).toBe(true);
    expect(canEditEmail(me(['USER_ADMIN'], 'ADMIN'))).toBe(true);
  });

  it('looks at the current occupation only, not at admin occupations elsewhere', () => {
    expect(holdsAdminOccupation(me([]))).toBe(false);
    expect(holdsAdminOccupation(me([], 'ADMIN'))).toBe(true);
  });

  it('removes authentication methods only as IS_ADMIN and never of oneself', () => {
    expect(canRemoveAuthMethods(me(['USER_ADMIN']), 'user-2')).toBe(false);
    expect(canRemoveAuthMethods(me(['IS_ADMIN']), 'user-2')).toBe(true);
    expect(canRemoveAuthMethods(me(['IS_ADMIN']), 'user-1')).toBe(false);
  });
});
