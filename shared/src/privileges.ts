/** Spec 1, section 6. */
export const PRIVILEGES = [
  'CLASSIFICATION_VIEW',
  'CLASSIFICATION_ADMIN',
  'USER_VIEW',
  'USER_ADMIN',
  'SCHEMA_VIEW',
  'SCHEMA_ADMIN',
  'ROLES_VIEW',
  'ROLES_ADMIN',
  'DATA_VIEW',
  'IS_ADMIN',
  'STATUS_VIEW',
  'STATUS_ADMIN',
  'ERP_VIEW',
  'ARCHIVE_VIEW',
] as const;

export type Privilege = (typeof PRIVILEGES)[number];

export function hasAnyPrivilege(held: readonly string[], ...wanted: Privilege[]): boolean {
  return wanted.some((privilege) => held.includes(privilege));
}
