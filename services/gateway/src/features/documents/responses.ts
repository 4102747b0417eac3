import type { DocumentRow } from '@eelarve/projections/documents/queries';
import type { Document } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { AuthContext } from '../../types';
import { listAccess, type ResourceAccess } from '../permissions/authorize';
import { copyStatuses, type DocumentCopyStatus } from './copy-status';

/** A documents read-model row as the API answers it, with the caller's permissions and the copy's state. */
export function toDocument(row: DocumentRow, permissions: ResourceAccess, copyStatus: DocumentCopyStatus | null = null): Document {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    description: row.description,
    period: { year: row.period_year, month: row.period_month, duration: row.period_duration },
    masterClassifierId: row.master_classifier_id,
    recordAmountKey: row.record_amount_key,
    allowCommentingWithReadPermissions: row.allow_commenting_with_read_permissions,
    resourceStatusId: row.resource_status_id,
    order: row.sort_order,
    recordsCount: row.records_count,
    createdAt: new Date(row.created_at).toISOString(),
    permissions,
    copyStatus,
  };
}

const listed = (row: DocumentRow) => ({ organizationId: row.organization_id, documentId: row.id, documentStatusId: row.resource_status_id });

/** One document with what the caller may do with it. */
export async function documentResponse(app: FastifyInstance, auth: AuthContext, row: DocumentRow): Promise<Document> {
  return (await documentResponses(app, auth, [row]))[0] as Document;
}

/** A list of documents (of one organisation) with what the caller may do with each: one grants query for the list. */
export async function documentResponses(app: FastifyInstance, auth: AuthContext, rows: readonly DocumentRow[]): Promise<Document[]> {
  const first = rows[0];
  if (!first) return [];
  const [access, statuses] = await Promise.all([
    listAccess(app, auth, first.organization_id, rows.map(listed)),
    copyStatuses(
      app,
      rows.map((row) => row.id),
    ),
  ]);
  return rows.map((row, index) => toDocument(row, access[index] ?? { read: false, update: false, restrictions: [] }, statuses.get(row.id)));
}
