import type { Me } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api';
import { ME_DEFAULTS } from '../../app/session/me-fixture';
import { automaticMfaPath, mfaPath, reloginPath, routeForOccupation, routeForSelectError } from './mfa-flow';

const PASSWORD_ORG = { id: '11111111-1111-4111-8111-111111111111', allowed: ['LOGIN'] } as const;
const MFA_ORG = { id: '22222222-2222-4222-8222-222222222222', allowed: ['LOGIN_WITH_MFA'] } as const;
const CARD_ORG = { id: '33333333-3333-4333-8333-333333333333', allowed: ['PASS'] } as const;

function occupation(org: { id: string; allowed: readonly string[] }) {
  return {
    id: org.id,
    name: `Occupation ${org.id.slice(0, 1)}`,
    type: 'DEFAULT' as const,
    organizationId: `org-${org.id}`,
    organizationName: `Organisation ${org.id.slice(0, 1)}`,
    allowedAuthenticationTypes: [...org.allowed] as Me['occupations'][number]['allowedAuthenticationTypes'],
  };
}

function me(overrides: Partial<Me> = {}): Me {
  return {
    id: 'user',
    name: 'User',
    email: 'user@example.com',
    organizationId: null,
    organizationName: null,
    occupationId: null,
    lastOccupationId: null,
    occupations: [occupation(PASSWORD_ORG), occupation(MFA_ORG), occupation(CARD_ORG)],
    ...ME_DEFAULTS,
    ...overrides,
  };
}

describe('the way into an occupation (spec 1, section 4)', () => {
  it('selects a usable occupation, asks for MFA (or its setup) and logs in again for another type', () => {
    const user = me();
    expect(routeForOccupation(user, occupation(PASSWORD_ORG))).toEqual({ kind: 'select' });
    expect(routeForOccupation(user, occupation(MFA_ORG))).toEqual({ kind: 'mfa', path: `/setup-mfa?occupationId=${MFA_ORG.id}` });
    expect(routeForOccupation(me({ mfaAdded: true }), occupation(MFA_ORG))).toEqual({ kind: 'mfa', path: `/enter-mfa-code?occupationId=${MFA_ORG.id}` });
    expect(routeForOccupation(user, occupation(CARD_ORG))).toEqual({ kind: 'relogin', path: `/login?authenticationType=PASS&occupationId=${CARD_ORG.id}` });
    // An electronic-ID session facing a password organisation logs in again with the password.
    expect(routeForOccupation(me({ authenticationType: 'PASS' }), occupation(PASSWORD_ORG))).toEqual({
      kind: 'relogin',
      path: reloginPath('LOGIN', PASSWORD_ORG.id),
    });
  });

  it('follows the server when it asks for a step', () => {
    const user = me();
    const enter = new ApiError(403, 'ENTER_MFA_CODE', 'code', { occupationId: MFA_ORG.id });
    expect(routeForSelectError(user, enter, 'other')).toEqual({ kind: 'mfa', path: mfaPath(true, MFA_ORG.id) });
    const setup = new ApiError(403, 'MFA_NOT_SET_UP', 'setup', { occupationId: null });
    expect(routeForSelectError(user, setup, MFA_ORG.id)).toEqual({ kind: 'mfa', path: mfaPath(false, MFA_ORG.id) });
    const unsuitable = new ApiError(403, 'ORGANIZATION_UNSUITABLE', 'type', { occupationId: CARD_ORG.id, requiredAuthenticationTypes: ['PASS'] });
    expect(routeForSelectError(user, unsuitable, CARD_ORG.id)).toEqual({ kind: 'relogin', path: reloginPath('PASS', CARD_ORG.id) });
    expect(routeForSelectError(user, new ApiError(404, 'OCCUPATION_NOT_FOUND'), CARD_ORG.id)).toBeNull();
    expect(routeForSelectError(user, new Error('boom'), CARD_ORG.id)).toBeNull();
  });

  it('goes straight to MFA when every occupation needs it', () => {
    expect(automaticMfaPath(me())).toBeNull();
    const onlyMfa = me({ occupations: [occupation(MFA_ORG)] });
    expect(automaticMfaPath(onlyMfa)).toBe(`/setup-mfa?occupationId=${MFA_ORG.id}`);
    const two = me({ mfaAdded: true, occupations: [occupation(MFA_ORG), { ...occupation(MFA_ORG), id: 'second' }] });
    expect(automaticMfaPath(two)).toBe('/enter-mfa-code');
    expect(automaticMfaPath({ ...onlyMfa, authenticationType: 'LOGIN_WITH_MFA' })).toBeNull();
    expect(automaticMfaPath({ ...onlyMfa, occupationId: MFA_ORG.id })).toBeNull();
  });
});
