import { describe, expect, it } from 'vitest';
import { expectDomainError, givenFor } from '../testing';
import { type DocumentCommand, documentDecider, documentOrderDecider } from './decider';
import type { DocumentEvent } from './events';

const documentId = '3f0c2a52-0d1e-4b57-8f53-1c2d3e4f5a6b';
const organizationId = '6c1b8e8e-3a43-4d55-9d36-5b7f1d2b0c01';
const classifierId = '7d2c9f9f-4b54-4e66-8e47-6c8f2e3c1d02';
const now = new Date('2026-11-21T08:00:00.000Z');

const given = givenFor<DocumentCommand, DocumentEvent, ReturnType<typeof documentDecider.initialState>>(documentDecider);

const expectCode = expectDomainError;

const settings = {
  name: 'Eelarve 2027',
  description: '',
  period: { year: 2027, month: 1, duration: 1 },
  recordAmountKey: 'summa',
  allowCommentingWithReadPermissions: false,
};
const create: DocumentCommand = { type: 'CreateDocument', documentId, organizationId, ...settings, now };
const created: DocumentEvent = {
  type: 'DocumentCreated',
  data: { documentId, organizationId, ...settings, resourceStatusId: null, createdAt: now.toISOString() },
};
const update = (changes: Partial<Extract<DocumentCommand, { type: 'UpdateDocument' }>> = {}): DocumentCommand => ({
  type: 'UpdateDocument',
  documentId,
  ...settings,
  resourceStatusId: null,
  masterClassifierId: null,
  recordsCount: 0,
  platformAdmin: false,
  ...changes,
});

describe('document decider', () => {
  it('creates a document', () => {
    expect(given([]).when(create)()).toEqual([created]);
  });

  it('refuses to create the same document twice', () => {
    expectCode(given([created]).when(create), 'CONCURRENT_MODIFICATION');
  });

  it('updates the settings and the master classifier', () => {
    const events = given([created]).when(update({ name: 'Eelarve 2028', period: { year: 2028, month: 3, duration: 2 }, masterClassifierId: classifierId }))();
    expect(events).toEqual([
      {
        type: 'DocumentUpdated',
        data: {
          documentId,
          organizationId,
          ...settings,
          name: 'Eelarve 2028',
          period: { year: 2028, month: 3, duration: 2 },
          masterClassifierId: classifierId,
          resourceStatusId: null,
        },
      },
    ]);
  });

  it('records nothing when nothing changed', () => {
    expect(given([created]).when(update())()).toEqual([]);
  });

  it('locks the period, duration included, once the document has records', () => {
    expectCode(given([created]).when(update({ recordsCount: 3, period: { year: 2027, month: 1, duration: 2 } })), 'DOCUMENT_PERIOD_UPDATE_RESTRICTED');
    expectCode(given([created]).when(update({ recordsCount: 3, period: { year: 2028, month: 1, duration: 1 } })), 'DOCUMENT_PERIOD_UPDATE_RESTRICTED');
    expect(given([created]).when(update({ recordsCount: 3, name: 'Other' }))()).toHaveLength(1);
  });

  it('lets only a platform administrator change allowCommentingWithReadPermissions', () => {
    expectCode(given([created]).when(update({ allowCommentingWithReadPermissions: true })), 'INSUFFICIENT_PERMISSIONS');
    expect(given([created]).when(update({ allowCommentingWithReadPermissions: true, platformAdmin: true }))()).toHaveLength(1);
  });

  it('deletes, after which the document is not found', () => {
    const deleted = given([created]).when({ type: 'DeleteDocument', documentId })();
    expect(deleted).toEqual([{ type: 'DocumentDeleted', data: { documentId, organizationId } }]);
    expectCode(given([created, ...deleted]).when(update()), 'OBJECT_NOT_FOUND');
    expectCode(given([created, ...deleted]).when({ type: 'DeleteDocument', documentId }), 'OBJECT_NOT_FOUND');
    expectCode(given([]).when({ type: 'DeleteDocument', documentId }), 'OBJECT_NOT_FOUND');
  });
});

describe('document order decider', () => {
  it('records the order', () => {
    const list = [
      { id: documentId, order: 2 },
      { id: classifierId, order: 1 },
    ];
    expect(documentOrderDecider.decide({ type: 'ReorderDocuments', organizationId, list }, { revision: 0 })).toEqual([
      { type: 'DocumentsReordered', data: { organizationId, list } },
    ]);
  });

  it('refuses a document listed twice', () => {
    const list = [
      { id: documentId, order: 2 },
      { id: documentId, order: 1 },
    ];
    expectCode(() => documentOrderDecider.decide({ type: 'ReorderDocuments', organizationId, list }, { revision: 0 }), 'SCHEMA_VALIDATION_ERROR');
  });

  it('names the field of a document listed twice, not where it arrived', () => {
    const list = [
      { id: documentId, order: 2 },
      { id: documentId, order: 1 },
    ];
    expect(() => documentOrderDecider.decide({ type: 'ReorderDocuments', organizationId, list }, { revision: 0 })).toThrow(
      expect.objectContaining({ details: [{ field: 'list', message: 'validation.unique' }] }),
    );
  });
});
