import type { DocumentRow } from '@eelarve/projections/documents/queries';
import type { Document } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { AuthContext } from '../../types';
import { canAccess, canAccessEach } from '../permissions/authorize';
import { copyStatuses, type DocumentCopyStatus } from './copy-status';

/** A documents read-model row as the API answers it, with the caller's permissions and the copy's state. */
export function toDocument(row: DocumentRow, permissions: { read: boolean; update: boolean }, copyStatus: DocumentCopyStatus | null = null): Document {
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

const resourceOf = (row: DocumentRow) => ({ organizationId: row.organization_id, documentId: row.id });

/** One document with what the caller may do with it. */
export async function documentResponse(app: FastifyInstance, auth: AuthContext, row: DocumentRow): Promise<Document> {
  const resource = resourceOf(row);
  const [read, update, statuses] = await Promise.all([
    canAccess(app, auth, resource, 'read'),
    canAccess(app, auth, resource, 'update'),
    copyStatuses(app, [row.id]),
  ]);
  return toDocument(row, { read, update }, statuses.get(row.id));
}

/** A list of documents with what the caller may do with each (the baseline is decided once per organisation). */
export async function documentResponses(app: FastifyInstance, auth: AuthContext, rows: readonly DocumentRow[]): Promise<Document[]> {
  const resources = rows.map(resourceOf);
  const [read, update, statuses] = await Promise.all([
    canAccessEach(app, auth, resources, 'read'),
    canAccessEach(app, auth, resources, 'update'),
    copyStatuses(
      app,
      rows.map((row) => row.id),
    ),
  ]);
  return rows.map((row, index) => toDocument(row, { read: read[index] ?? false, update: update[index] ?? false }, statuses.get(row.id)));
}
