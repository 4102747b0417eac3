import { hasAnyPrivilege, type Me } from '@eelarve/shared';

/** Who may open which area (spec 1, section 6: the menu gates, also used by the route guards). */
export const access = {
  roles: (me: Me) => hasAnyPrivilege(me.privileges, 'ROLES_VIEW', 'ROLES_ADMIN'),
  users: (me: Me) => hasAnyPrivilege(me.privileges, 'USER_VIEW', 'USER_ADMIN'),
  statuses: (me: Me) => me.organizationEnableResourceStatuses && hasAnyPrivilege(me.privileges, 'STATUS_VIEW', 'STATUS_ADMIN'),
  administration: (me: Me) => hasAnyPrivilege(me.privileges, 'IS_ADMIN'),
} as const;

export type AccessRule = (me: Me) => boolean;
