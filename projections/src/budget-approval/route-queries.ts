import type { ApprovalRoute } from '@eelarve/shared';
import type { ReadDatabase } from '../read-models';

/** The route the organisation configured; undefined while it has the default one. */
export async function configuredApprovalRoute(read: ReadDatabase, organizationId: string): Promise<ApprovalRoute | undefined> {
  const row = await read.selectFrom('approval_routes').select('route').where('organization_id', '=', organizationId).executeTakeFirst();
  return row?.route;
}
