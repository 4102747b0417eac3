import { DomainError } from '@eelarve/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readModels } from '../../infrastructure/database';
import { requireAuth } from '../../plugins/auth';
import type { AuthContext } from '../../types';

/**
 * Organisation isolation for the users, roles and occupations routes: a caller acts only in the
 * organisation of their session, unless they are a platform administrator (IS_ADMIN), who may
 * manage any organisation.
 */
export const isPlatformAdmin = (auth: AuthContext) => auth.privileges.includes('IS_ADMIN');

/** The caller may act in the organisation of the path; the answer does not reveal whether it exists. */
export async function organizationInScope(app: FastifyInstance, request: FastifyRequest, organizationId: string): Promise<AuthContext> {
  const auth = requireAuth(request);
  if (auth.organizationId !== organizationId && !isPlatformAdmin(auth)) throw new DomainError('INSUFFICIENT_PERMISSIONS', 'another organisation');
  const organization = await readModels(app.db).selectFrom('organizations').select('id').where('id', '=', organizationId).executeTakeFirst();
  if (!organization) throw new DomainError('ORGANIZATION_NOT_FOUND');
  return auth;
}

/**
 * An object addressed by its own id must belong to an organisation the caller may act in;
 * otherwise it is "not found", so ids of other organisations are not even confirmed.
 */
export function visibleTo(auth: AuthContext, objectOrganizationId: string | undefined): boolean {
  return objectOrganizationId !== undefined && (objectOrganizationId === auth.organizationId || isPlatformAdmin(auth));
}

/** Acting in an ADMIN occupation of the organisation: an organisation administrator. */
export async function actsAsOrganizationAdmin(app: FastifyInstance, auth: AuthContext, organizationId: string): Promise<boolean> {
  if (!auth.occupationId || auth.organizationId !== organizationId) return false;
  const occupation = await readModels(app.db).selectFrom('occupations').select('type').where('id', '=', auth.occupationId).executeTakeFirst();
  return occupation?.type === 'ADMIN';
}

/** The platform's own organisation (organisation 1): the only one whose roles may carry IS_ADMIN. */
export async function isPlatformOrganization(app: FastifyInstance, organizationId: string): Promise<boolean> {
  const row = await readModels(app.db).selectFrom('organizations').select('is_platform').where('id', '=', organizationId).executeTakeFirst();
  return row?.is_platform === true;
}

/**
 * The privileges the caller would hand out without holding them. Nobody grants more than they
 * have (a user administrator cannot make themselves a role administrator); a platform
 * administrator holds them all.
 */
export function privilegesNotHeld(auth: AuthContext, privileges: readonly string[]): string[] {
  if (isPlatformAdmin(auth)) return [];
  return [...new Set(privileges)].filter((privilege) => !auth.privileges.includes(privilege)).sort();
}
