import { findOccupation } from '@eelarve/projections/accounts/queries';
import { hasGrant } from '@eelarve/projections/permissions/queries';
import { readModels } from '../../infrastructure/database';
import type { AccessQuestion, ResourceGrantProvider } from '../permissions/authorize';

/**
 * The grants as a `ResourceGrantProvider` for features/permissions/authorize.ts. NOT registered
 * yet: switching the baseline changes who sees what everywhere (issue 10, the next step), done by
 * `registerResourceGrantProvider(resourceGrantProvider)` where the app is built.
 *
 * authorize.ts asks it only for callers inside the resource's organisation who are not platform
 * administrators. It answers:
 * - no opinion for ADMIN-type occupations (the baseline: they read and update everything) and for
 *   reading the organisation itself (every occupation of it does);
 * - where the route names privileges that also grant update (SCHEMA_ADMIN for schemes, ...) and
 *   the caller holds one: update as far as the resource is readable through the grants;
 * - otherwise: the occupation's own or inherited grant for the action.
 * One query per question; list endpoints filter with `budgetIdsWith`/`subBudgetIdsWith` instead
 * of asking per row. Resource-status flags are folded in beside `hasGrant` once their read model
 * exists.
 */
export const resourceGrantProvider: ResourceGrantProvider = async ({ app, auth, resource, action, options }: AccessQuestion) => {
  if (!auth.occupationId) return false;
  const read = readModels(app.db);
  const occupation = await findOccupation(read, auth.occupationId);
  if (!occupation) return false;
  if (occupation.type === 'ADMIN') return undefined;
  if (!resource.documentId && action === 'read') return undefined;
  const byPrivilege = action === 'update' && (options.privileges ?? []).some((privilege) => auth.privileges.includes(privilege));
  return hasGrant(read, auth.occupationId, resource, byPrivilege ? 'read' : action);
};
