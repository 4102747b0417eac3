import type { DocumentsTable } from '@eelarve/projections/documents/tables';
import type { Document } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import { readModels } from '../../infrastructure/database';
import type { AuthContext } from '../../types';
import { canAccess, canAccessEach } from '../permissions/authorize';
import { copyStatuses, type DocumentCopyStatus } from './copy-status';

export type DocumentRow = Selectable<DocumentsTable>;

export async function findDocument(app: FastifyInstance, documentId: string): Promise<DocumentRow | undefined> {
  return readModels(app.db).selectFrom('documents').selectAll().where('id', '=', documentId).executeTakeFirst();
}

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

export async function documentWithPermissions(app: FastifyInstance, auth: AuthContext, row: DocumentRow): Promise<Document> {
  const resource = { organizationId: row.organization_id, documentId: row.id };
  const [read, update, statuses] = await Promise.all([canAccess(app, auth, resource, 'read'), canAccess(app, auth, resource, 'update'), copyStatuses(app, [row.id])]);
  return toDocument(row, { read, update }, statuses.get(row.id));
}

/**
 * The organisation's documents in their order (highest order first, then newest). `readableOnly`
 * leaves out documents the caller may not read (GET .../documents); GET .../all-documents lists
 * them all with their permissions, for pickers that show the whole tree.
 */
export async function listDocuments(app: FastifyInstance, auth: AuthContext, organizationId: string, readableOnly: boolean): Promise<Document[]> {
  const rows = await readModels(app.db)
    .selectFrom('documents')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('sort_order', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  const resources = rows.map((row) => ({ organizationId: row.organization_id, documentId: row.id }));
  const [read, update, statuses] = await Promise.all([
    canAccessEach(app, auth, resources, 'read'),
    canAccessEach(app, auth, resources, 'update'),
    copyStatuses(app, rows.map((row) => row.id)),
  ]);
  const documents = rows.map((row, index) => toDocument(row, { read: read[index] ?? false, update: update[index] ?? false }, statuses.get(row.id)));
  return readableOnly ? documents.filter((document) => document.permissions.read) : documents;
}
