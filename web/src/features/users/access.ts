import { hasAnyPrivilege, type Me } from '@eelarve/shared';

/**
 * What the signed-in user may do in the users area (spec 1, sections 5 and 6). The route itself
 * needs USER_VIEW or USER_ADMIN (app/access.ts).
 */

/** USER_ADMIN edits users and occupations; USER_VIEW only looks. */
export const canEditUsers = (me: Me): boolean => hasAnyPrivilege(me.privileges, 'USER_ADMIN');

/** The platform administrator. */
export const isPlatformAdmin = (me: Me): boolean => hasAnyPrivilege(me.privileges, 'IS_ADMIN');

/** The current occupation is the organisation's administrator occupation. */
export const holdsAdminOccupation = (me: Me): boolean => me.occupations.some((occupation) => occupation.id === me.occupationId && occupation.type === 'ADMIN');

/** Only an administrator (IS_ADMIN, or the ADMIN occupation) changes a user's e-mail. */
export const canEditEmail = (me: Me): boolean => isPlatformAdmin(me) || holdsAdminOccupation(me);

/** Removing authentication methods: IS_ADMIN, and never one's own. */
export const canRemoveAuthMethods = (me: Me, userId: string): boolean => isPlatformAdmin(me) && me.id !== userId;
