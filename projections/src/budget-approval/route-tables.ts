import type { ApprovalRoute } from '@eelarve/shared';
import type { ColumnType } from 'kysely';

/** The approval route an organisation configured; an organisation without a row has the default route. */
export interface ApprovalRoutesTable {
  organization_id: string;
  route: ColumnType<ApprovalRoute, string, string>;
  /** The revision of the organisation's route stream the row reflects (a replayed older event changes nothing). */
  revision: number;
}

export interface ApprovalRoutesReadModel {
  approval_routes: ApprovalRoutesTable;
}
