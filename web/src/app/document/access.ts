import { hasAnyPrivilege, type Me } from '@eelarve/shared';

/** The platform administrator. */
export const isPlatformAdmin = (me: Me): boolean => hasAnyPrivilege(me.privileges, 'IS_ADMIN');

/**
 * Organisation update (create and reorder documents). Mirrors the gateway's baseline in
 * permissions/authorize.ts: IS_ADMIN, or the organisation's ADMIN occupation.
 */
/** Creating and reordering documents: an ADMIN occupation or an organisation-update grant (spec 1, section 6). */
export const canUpdateOrganization = (me: Me): boolean => isPlatformAdmin(me) || me.mayUpdateOrganization;

export const canSeeClassifiers = (me: Me): boolean => hasAnyPrivilege(me.privileges, 'CLASSIFICATION_VIEW', 'CLASSIFICATION_ADMIN');
export const canSeeSchemes = (me: Me): boolean => hasAnyPrivilege(me.privileges, 'SCHEMA_VIEW', 'SCHEMA_ADMIN');

/** Copy options (spec 2, section 5). */
export const canCopyPermissions = (me: Me): boolean => hasAnyPrivilege(me.privileges, 'USER_ADMIN');
export const canCopyClassifiers = (me: Me): boolean => hasAnyPrivilege(me.privileges, 'CLASSIFICATION_ADMIN');
export const canEditSchemes = (me: Me): boolean => hasAnyPrivilege(me.privileges, 'SCHEMA_ADMIN');
export const canCopySchemes = canEditSchemes;
