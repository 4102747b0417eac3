import { DomainError, fieldError } from '@eelarve/shared';
import type { Decider } from '../decider';
import type { DocumentEvent, DocumentOrderEvent, DocumentPeriod, DocumentSettings } from './events';

export interface ActiveDocument extends DocumentSettings {
  status: 'active';
  organizationId: string;
  masterClassifierId: string | null;
}

export type DocumentState = { status: 'none' } | ActiveDocument | { status: 'deleted' };

/**
 * Facts from other aggregates (records, classifiers) reach the decider with the command; the
 * gateway reads them from the read models. The master classifier's own rules (a required,
 * non-grouping classifier of the document that no scheme uses) are checked there too.
 */
export type DocumentCommand =
  | ({ type: 'CreateDocument'; documentId: string; organizationId: string; now: Date; copiedFromDocumentId?: string | null } & Omit<
      DocumentSettings,
      'resourceStatusId'
    > & {
        resourceStatusId?: string | null;
      })
  | ({
      type: 'UpdateDocument';
      documentId: string;
      masterClassifierId: string | null;
      /** Records in the document's budgets; the period is fixed once there are any. */
      recordsCount: number;
      /** Only a platform administrator (IS_ADMIN) may change allowCommentingWithReadPermissions. */
      platformAdmin: boolean;
      /** The document's status locks its settings and the caller is a status administrator: only the status may change. */
      onlyStatusMayChange?: boolean;
    } & DocumentSettings)
  | { type: 'DeleteDocument'; documentId: string };

export const documentStream = (documentId: string) => `document-${documentId}`;

const samePeriod = (a: DocumentPeriod, b: DocumentPeriod) => a.year === b.year && a.month === b.month && a.duration === b.duration;

function active(state: DocumentState): ActiveDocument {
  if (state.status !== 'active') throw new DomainError('OBJECT_NOT_FOUND', 'document not found');
  return state;
}

function update(command: Extract<DocumentCommand, { type: 'UpdateDocument' }>, state: DocumentState): DocumentEvent[] {
  const document = active(state);
  // The period (and with it the duration) is locked once the document has records (spec 2, section 5).
  if (!samePeriod(document.period, command.period) && command.recordsCount > 0) throw new DomainError('DOCUMENT_PERIOD_UPDATE_RESTRICTED');
  if (document.allowCommentingWithReadPermissions !== command.allowCommentingWithReadPermissions && !command.platformAdmin) {
    throw new DomainError('INSUFFICIENT_PERMISSIONS', 'only a platform administrator may change allowCommentingWithReadPermissions');
  }
  const { documentId, name, description, period, masterClassifierId, recordAmountKey, allowCommentingWithReadPermissions, resourceStatusId } = command;
  const settingsUnchanged =
    document.name === name &&
    document.description === description &&
    samePeriod(document.period, period) &&
    document.masterClassifierId === masterClassifierId &&
    document.recordAmountKey === recordAmountKey &&
    document.allowCommentingWithReadPermissions === allowCommentingWithReadPermissions;
  if (command.onlyStatusMayChange && !settingsUnchanged) {
    throw new DomainError('ACTION_DISALLOWED_DUE_TO_STATUS', "the document's status locks its settings: only its status may change");
  }
  if (settingsUnchanged && document.resourceStatusId === resourceStatusId) return [];
  return [
    {
      type: 'DocumentUpdated',
      data: {
        documentId,
        organizationId: document.organizationId,
        name,
        description,
        period: { ...period },
        masterClassifierId,
        recordAmountKey,
        allowCommentingWithReadPermissions,
        resourceStatusId,
      },
    },
  ];
}

export const documentDecider: Decider<DocumentCommand, DocumentEvent, DocumentState> = {
  streamName: (command) => documentStream(command.documentId),
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'DocumentCreated': {
        const { organizationId, name, description, period, recordAmountKey, allowCommentingWithReadPermissions, resourceStatusId } = event.data;
        return {
          status: 'active',
          organizationId,
          name,
          description,
          period,
          recordAmountKey,
          allowCommentingWithReadPermissions,
          resourceStatusId,
          masterClassifierId: null,
        };
      }
      case 'DocumentUpdated': {
        if (state.status !== 'active') return state;
        const { name, description, period, masterClassifierId, recordAmountKey, allowCommentingWithReadPermissions, resourceStatusId } = event.data;
        return { ...state, name, description, period, masterClassifierId, recordAmountKey, allowCommentingWithReadPermissions, resourceStatusId };
      }
      case 'DocumentDeleted':
        return { status: 'deleted' };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateDocument': {
        if (state.status !== 'none') throw new DomainError('CONCURRENT_MODIFICATION', 'document already exists');
        const { documentId, organizationId, name, description, period, recordAmountKey, allowCommentingWithReadPermissions, now } = command;
        return [
          {
            type: 'DocumentCreated',
            data: {
              documentId,
              organizationId,
              name,
              description,
              period: { ...period },
              recordAmountKey,
              allowCommentingWithReadPermissions,
              resourceStatusId: command.resourceStatusId ?? null,
              createdAt: now.toISOString(),
              ...(command.copiedFromDocumentId ? { copiedFromDocumentId: command.copiedFromDocumentId } : {}),
            },
          },
        ];
      }
      case 'UpdateDocument':
        return update(command, state);
      case 'DeleteDocument': {
        const document = active(state);
        return [{ type: 'DocumentDeleted', data: { documentId: command.documentId, organizationId: document.organizationId } }];
      }
    }
  },
};

// ---- order of an organisation's documents -----------------------------------

export type DocumentOrderCommand = { type: 'ReorderDocuments'; organizationId: string; list: { id: string; order: number }[] };

/** One stream per organisation carries the order of its documents (the read model applies it). */
export const documentOrderStream = (organizationId: string) => `documentorder-${organizationId}`;

export const documentOrderDecider: Decider<DocumentOrderCommand, DocumentOrderEvent, { revision: number }> = {
  streamName: (command) => documentOrderStream(command.organizationId),
  initialState: () => ({ revision: 0 }),
  evolve: (state) => ({ revision: state.revision + 1 }),
  decide(command) {
    const ids = new Set(command.list.map((entry) => entry.id));
    if (ids.size !== command.list.length) throw fieldError('SCHEMA_VALIDATION_ERROR', 'list', 'validation.unique', 'a document appears twice in the order');
    if (command.list.length === 0) return [];
    return [{ type: 'DocumentsReordered', data: { organizationId: command.organizationId, list: command.list.map(({ id, order }) => ({ id, order })) } }];
  },
};
