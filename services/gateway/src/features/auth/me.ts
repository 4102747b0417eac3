import { findUserById, occupationPrivileges } from '@eelarve/projections/accounts/queries';
import { findOrganization } from '@eelarve/projections/organizations/queries';
import { organizationGrant } from '@eelarve/projections/permissions/queries';
import { DomainError, type Me } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import { hasElectronicId } from '../electronic-id/bindings';
import { resourceStatusesOf } from '../resource-statuses/service';
import { hasPassword } from './credentials';
import { hasMfa } from './mfa';
import { countActiveSessions, type SessionRecord } from './sessions';
import { lastOccupationOf, orderOccupations, userOccupations } from './sign-in-occupations';

/** GET api/auth/me and every sign-in step: the user, the occupation in use, and what it may do. */
export async function meOf(app: FastifyInstance, session: SessionRecord): Promise<Me> {
  const read = readModels(app.db);
  const user = await findUserById(read, session.userId);
  if (!user) throw new DomainError('UNAUTHORIZED');
  const [occupations, lastOccupationId, password, mfa, personalCode, activeSessionCount] = await Promise.all([
    userOccupations(app.db, user.id),
    lastOccupationOf(app.db, user.id),
    hasPassword(app.db, user.id),
    hasMfa(app.db, user.id),
    hasElectronicId(app.db, user.id),
    countActiveSessions(app.db, user.id),
  ]);
  const current = occupations.find((occupation) => occupation.id === session.occupationId) ?? null;
  const [organization, organizationGrants] = current
    ? await Promise.all([findOrganization(read, current.organizationId), organizationGrant(read, current.id, current.organizationId)])
    : [undefined, undefined];
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    organizationId: current?.organizationId ?? null,
    organizationName: current?.organizationName ?? null,
    occupationId: current?.id ?? null,
    lastOccupationId,
    occupations: orderOccupations(occupations, lastOccupationId, session.authenticationType).map(
      ({ roleIds: _r, sessionLengthMs: _s, ...occupation }) => occupation,
    ),
    privileges: current ? ((await occupationPrivileges(read, user.id, current.id)) ?? []) : [],
    authenticationType: session.authenticationType as Me['authenticationType'],
    organizationEnableResourceStatuses: organization?.enable_resource_statuses ?? false,
    mayUpdateOrganization: current?.type === 'ADMIN' || organizationGrants?.update === true,
    organizationAllowResourceStatusEditing: organization?.allow_resource_status_editing ?? false,
    resourceStatuses: await resourceStatusesOf(read, organization),
    organizationLocaleSettings: organization?.locale_settings ?? null,
    userLanguage: user.language,
    hasPersonalCode: personalCode,
    mfaAdded: mfa,
    hasPassword: password,
    activeSessionCount,
  };
}
