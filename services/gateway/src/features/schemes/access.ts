import { findScheme, type SchemeRow } from '@eelarve/projections/schemes/queries';
import { DomainError, type ErrorCode, type Privilege } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import type { AuthContext } from '../../types';
import { type AccessOptions, assertResourceAccess, type ResourceAction, type ResourceRef } from '../permissions/authorize';

/** Viewing schemes and sub-budgets (route access). */
export const SCHEME_VIEWERS = { privileges: ['SCHEMA_VIEW', 'SCHEMA_ADMIN'] as Privilege[] };
/** Editing them (route access, and what grants update of their document besides its baseline). */
export const SCHEME_EDITORS = { privileges: ['SCHEMA_ADMIN'] as Privilege[] };

/** The schemes tab and the sub-budgets tab read the schemes projector: commands wait for it. */
export const SCHEME_READ_MODELS = ['schemes'] as const;

/** Checks access to the resource; another organisation's object answers `notFound`, like an unknown id. */
export async function assertAccessOr(
  notFound: ErrorCode,
  app: FastifyInstance,
  auth: AuthContext,
  resource: ResourceRef,
  action: ResourceAction,
  options: AccessOptions,
): Promise<void> {
  try {
    await assertResourceAccess(app, auth, resource, action, options);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'OBJECT_NOT_FOUND') throw new DomainError(notFound);
    throw error;
  }
}

/**
 * The scheme in the path, after checking the caller may perform `action` on its document:
 * an unknown scheme and one of another organisation both answer 404 SCHEME_NOT_FOUND.
 */
export async function schemeInPath(
  app: FastifyInstance,
  auth: AuthContext,
  schemeId: string,
  action: ResourceAction,
  options: AccessOptions = {},
): Promise<SchemeRow> {
  const scheme = await findScheme(readModels(app.db), schemeId);
  if (!scheme) throw new DomainError('SCHEME_NOT_FOUND');
  await assertAccessOr('SCHEME_NOT_FOUND', app, auth, { organizationId: scheme.organization_id, documentId: scheme.document_id }, action, options);
  return scheme;
}
