import type { Me } from '@eelarve/shared';

/**
 * For unit tests: the fields of a signed-in user (`Me`) that most tests do not vary — a password
 * sign-in without privileges, MFA, electronic ID or settings, in one session.
 */
export const ME_DEFAULTS = {
  privileges: [],
  authenticationType: 'LOGIN',
  organizationEnableResourceStatuses: false,
  mayUpdateOrganization: false,
  organizationAllowResourceStatusEditing: false,
  resourceStatuses: [],
  organizationLocaleSettings: null,
  userLanguage: null,
  hasPersonalCode: false,
  mfaAdded: false,
  hasPassword: true,
  activeSessionCount: 1,
} as const satisfies Partial<Me>;
