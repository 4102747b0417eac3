import { signInOccupations } from '@eelarve/projections/accounts/queries';
import type { AuthenticationType } from '@eelarve/shared';
import type { AppDatabase } from '../../infrastructure/database';
import { readModels } from '../../infrastructure/database';

/** An occupation the user may enter, with what its organisation says about signing in. */
export interface UserOccupation {
  id: string;
  name: string;
  type: 'ADMIN' | 'DEFAULT';
  organizationId: string;
  organizationName: string;
  allowedAuthenticationTypes: AuthenticationType[];
  roleIds: string[];
  sessionLengthMs: number;
}

export async function userOccupations(db: AppDatabase, userId: string): Promise<UserOccupation[]> {
  return (await signInOccupations(readModels(db), userId)).map((row) => ({
    id: row.id,
    name: row.name,
    type: row.type,
    organizationId: row.organization_id,
    organizationName: row.organization_name,
    allowedAuthenticationTypes: row.allowed_authentication_types as AuthenticationType[],
    roleIds: row.role_ids,
    sessionLengthMs: row.session_length * Number(row.session_length_multiplier),
  }));
}

/**
 * Occupation selection order (spec 1, section 2): last used first, then those usable with the
 * current authentication type, then alphabetical.
 */
export function orderOccupations(occupations: UserOccupation[], lastOccupationId: string | null, authenticationType: string): UserOccupation[] {
  const rank = (occupation: UserOccupation) =>
    occupation.id === lastOccupationId ? 0 : occupation.allowedAuthenticationTypes.includes(authenticationType as AuthenticationType) ? 1 : 2;
  return [...occupations].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name, 'et'));
}

/** The occupation the user last entered (operational sign-in bookkeeping). */
export async function lastOccupationOf(db: AppDatabase, userId: string): Promise<string | null> {
  const row = await db.selectFrom('operational.sign_ins').select('last_occupation_id').where('user_id', '=', userId).executeTakeFirst();
  return row?.last_occupation_id ?? null;
}
