import { type DocumentCommand, documentDecider, documentOrderDecider } from '@eelarve/domain';
import { countOrganizationDocuments, type DocumentRow, findDocument, listOrganizationDocuments } from '@eelarve/projections/documents/queries';
import {
  type Document,
  type DocumentCopyOptions,
  type DocumentCreatedResult,
  DomainError,
  type documentInputSchema,
  fieldError,
  type OrderInput,
  type Privilege,
} from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { CommandContext } from '../../infrastructure/command-runner';
import { readModels } from '../../infrastructure/database';
import type { AuthContext, Caller } from '../../types';
import { canAccess, documentResource, isPlatformAdmin, organizationResource, type ResourceAction } from '../permissions/authorize';
import { assertResourceStatusField } from '../resource-statuses/service';
import { availableCopySteps, chosenCopySteps, type DocumentCopyStepName, startDocumentCopy } from './copy';
import { checkMasterClassifier } from './master-classifier';
import { documentResponse, documentResponses } from './responses';

type DocumentInput = z.output<typeof documentInputSchema>;

/** Every document screen (sider, settings, budgets) reads the documents read model. */
const READ_MODELS = ['documents'] as const;

/** The answer when a body names another object than its path. */
const mismatch = (field: string) => fieldError('SCHEMA_VALIDATION_ERROR', field, 'validation.mismatch', 'request does not match the schema');

/** Copy options need privileges (spec 2, section 5); IS_ADMIN may do everything. */
const COPY_PRIVILEGES: Partial<Record<keyof DocumentCopyOptions, Privilege>> = {
  permissions: 'USER_ADMIN',
  classifiers: 'CLASSIFICATION_ADMIN',
  schemes: 'SCHEMA_ADMIN',
};

function assertCopyPrivileges(auth: AuthContext, options: DocumentCopyOptions): void {
  if (isPlatformAdmin(auth)) return;
  for (const [option, privilege] of Object.entries(COPY_PRIVILEGES) as [keyof DocumentCopyOptions, Privilege][]) {
    if (options[option] && !auth.privileges.includes(privilege)) {
      throw fieldError('INSUFFICIENT_PERMISSIONS', `copy.${option}`, 'validation.privilege', `copying ${option} needs ${privilege}`);
    }
  }
}

/** A chosen part this version cannot copy is refused before the document is made, never skipped. */
function assertCopyPartsAvailable(options: DocumentCopyOptions): void {
  const available = availableCopySteps();
  for (const name of chosenCopySteps(options)) {
    if (!available.includes(name)) throw fieldError('COPY_PART_NOT_AVAILABLE', `copy.${name}`, 'copyPartUnavailable', `copying ${name} is not available`);
  }
}

/** Who may copy what, checked before anything is written: privileges per part, parts this version has, and read access to the source. */
async function assertCopyAllowed(app: FastifyInstance, auth: AuthContext, copy: DocumentCopyOptions): Promise<void> {
  assertCopyPrivileges(auth, copy);
  assertCopyPartsAvailable(copy);
  await documentResource(app, auth, copy.sourceDocumentId, 'read');
}

/**
 * Documents (budget periods; spec 2, sections 3 and 5): list, read, create (optionally as a copy
 * of another document, which a task finishes), edit, delete and reorder. Each function checks
 * access first; another organisation's documents are "not found".
 */
export function documentService(app: FastifyInstance) {
  const read = () => readModels(app.db);
  const run = (caller: Caller, command: DocumentCommand | ((context: CommandContext) => DocumentCommand)) =>
    app.commands.run({ decider: documentDecider, command, actor: caller.actor, readModels: READ_MODELS });

  /**
   * Whether the document's status locks its settings (the caller holds the update grant). A status
   * administrator may then still change the status, and only that; anyone else is refused.
   */
  async function settingsLockedForStatusAdmin(caller: Caller, row: DocumentRow): Promise<boolean> {
    const resource = { organizationId: row.organization_id, documentId: row.id };
    if (await canAccess(app, caller.auth, resource, 'updateSettings')) return false;
    if (!caller.auth.privileges.includes('STATUS_ADMIN') && !isPlatformAdmin(caller.auth)) await documentResource(app, caller.auth, row.id, 'updateSettings');
    return true;
  }

  /** The live document the caller may perform `action` on (404 otherwise). */
  async function accessibleDocument(caller: Caller, documentId: string, action: ResourceAction) {
    await documentResource(app, caller.auth, documentId, action);
    const row = await findDocument(read(), documentId);
    if (!row) throw new DomainError('OBJECT_NOT_FOUND', 'document not found');
    return row;
  }

  return {
    /**
     * The organisation's documents in their order. `readableOnly` leaves out documents the caller
     * may not read (GET .../documents); GET .../all-documents lists them all with their
     * permissions, for pickers that show the whole tree.
     */
    async list(caller: Caller, organizationId: string, { readableOnly }: { readableOnly: boolean }): Promise<Document[]> {
      await organizationResource(app, caller.auth, organizationId, 'read');
      const documents = await documentResponses(app, caller.auth, await listOrganizationDocuments(read(), organizationId));
      // The whole tree is for those who grant on it (the permission screens); others see what they read.
      const managesGrants = isPlatformAdmin(caller.auth) || caller.auth.privileges.some((privilege) => privilege === 'USER_VIEW' || privilege === 'USER_ADMIN');
      return readableOnly || !managesGrants ? documents.filter((document) => document.permissions.read) : documents;
    },

    async get(caller: Caller, documentId: string): Promise<Document> {
      return documentResponse(app, caller.auth, await accessibleDocument(caller, documentId, 'read'));
    },

    /** Which copy options the create form can offer (the web greys out parts whose feature is not there yet). */
    copyParts: (_caller: Caller): { parts: DocumentCopyStepName[] } => ({ parts: availableCopySteps() }),

    async create(caller: Caller, organizationId: string, input: DocumentInput): Promise<DocumentCreatedResult> {
      const { auth } = caller;
      await organizationResource(app, auth, organizationId, 'update');
      if (input.organizationId && input.organizationId !== organizationId) throw mismatch('organizationId');
      await assertResourceStatusField(app, organizationId, input.resourceStatusId);
      const copy = input.copy ?? null;
      if (copy) await assertCopyAllowed(app, auth, copy);
      const allowComments = input.allowCommentingWithReadPermissions ?? false;
      if (allowComments && !isPlatformAdmin(auth))
        throw new DomainError('INSUFFICIENT_PERMISSIONS', 'only a platform administrator may set allowCommentingWithReadPermissions');
      const { id, position } = await run(caller, ({ now, newId }) => ({
        type: 'CreateDocument',
        documentId: newId(),
        organizationId,
        name: input.name,
        description: input.description,
        period: input.period,
        recordAmountKey: input.recordAmountKey,
        allowCommentingWithReadPermissions: allowComments,
        resourceStatusId: input.resourceStatusId,
        copiedFromDocumentId: copy?.sourceDocumentId ?? null,
        now,
      }));
      if (!copy) return { id, position };
      return { id, position, taskId: await startDocumentCopy(app, caller, organizationId, id, copy) };
    },

    async update(caller: Caller, documentId: string, input: DocumentInput) {
      const row = await accessibleDocument(caller, documentId, 'updateStatus');
      const onlyStatusMayChange = await settingsLockedForStatusAdmin(caller, row);
      if (input.id && input.id !== documentId) throw mismatch('id');
      await assertResourceStatusField(app, row.organization_id, input.resourceStatusId);
      const masterClassifierId = input.masterClassifierId === undefined ? row.master_classifier_id : input.masterClassifierId;
      await checkMasterClassifier(read(), documentId, masterClassifierId, row.master_classifier_id);
      const { id, position } = await run(caller, {
        type: 'UpdateDocument',
        documentId,
        name: input.name,
        description: input.description,
        period: input.period,
        masterClassifierId,
        recordAmountKey: input.recordAmountKey,
        allowCommentingWithReadPermissions: input.allowCommentingWithReadPermissions ?? row.allow_commenting_with_read_permissions,
        resourceStatusId: input.resourceStatusId,
        recordsCount: row.records_count,
        platformAdmin: isPlatformAdmin(caller.auth),
        onlyStatusMayChange,
      });
      return { id, position };
    },

    async remove(caller: Caller, documentId: string) {
      await documentResource(app, caller.auth, documentId, 'update');
      const { id, position } = await run(caller, { type: 'DeleteDocument', documentId });
      return { id, position };
    },

    /** The organisation's document order (the sider's drag and drop); every listed document must be one of its own. */
    async reorder(caller: Caller, organizationId: string, input: OrderInput) {
      await organizationResource(app, caller.auth, organizationId, 'update');
      if (input.organizationId && input.organizationId !== organizationId) throw mismatch('organizationId');
      const ids = [...new Set(input.list.map((entry) => entry.id))];
      if ((await countOrganizationDocuments(read(), organizationId, ids)) !== ids.length) {
        throw new DomainError('OBJECT_NOT_FOUND', 'a document of the list is not in the organisation');
      }
      const command = { type: 'ReorderDocuments' as const, organizationId, list: input.list };
      const { position } = await app.commands.run({ decider: documentOrderDecider, command, actor: caller.actor, readModels: READ_MODELS, id: organizationId });
      return { id: organizationId, position };
    },
  };
}
