import { LIMITS } from '@eelarve/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProjectorSpec, newId, projectorSpec } from '../../test/given-events';
import { classifiersProjector } from '../classifiers/projector';
import { schemesProjector } from '../schemes/projector';
import { documentsProjector } from './projector';
import {
  classifierUsedInScheme,
  countOrganizationDocuments,
  documentHasClassifiers,
  findDocument,
  listOrganizationDocuments,
  masterClassifierCandidate,
} from './queries';

let spec: ProjectorSpec;
afterEach(async () => spec?.close());

const settings = {
  description: 'Linna eelarve',
  period: { year: 2027, month: 1, duration: 1 },
  recordAmountKey: 'summa',
  allowCommentingWithReadPermissions: false,
  resourceStatusId: null,
};

const created = (documentId: string, organizationId: string, name: string, createdAt = '2026-11-02T08:00:00.000Z') => ({
  stream: `document-${documentId}`,
  type: 'DocumentCreated',
  data: { ...settings, documentId, organizationId, name, createdAt },
});
const reordered = (organizationId: string, list: { id: string; order: number }[]) => ({
  stream: `documentorder-${organizationId}`,
  type: 'DocumentsReordered',
  data: { organizationId, list },
});

const names = async (organizationId: string) => (await listOrganizationDocuments(spec.read, organizationId)).map((row) => row.name);

describe('documents projector', () => {
  it('given a created document, finds it with its settings, no master classifier and no records', async () => {
    spec = await projectorSpec(documentsProjector);
    const [documentId, organizationId] = [newId(), newId()];
    await spec.given(created(documentId, organizationId, 'Eelarve 2027'));
    const row = await findDocument(spec.read, documentId);
    expect(row).toMatchObject({
      id: documentId,
      organization_id: organizationId,
      name: 'Eelarve 2027',
      description: 'Linna eelarve',
      period_year: 2027,
      period_month: 1,
      period_duration: 1,
      master_classifier_id: null,
      record_amount_key: 'summa',
      allow_commenting_with_read_permissions: false,
      resource_status_id: null,
      sort_order: 1,
      records_count: 0,
    });
    expect(row?.created_at.toISOString()).toBe('2026-11-02T08:00:00.000Z');
    expect(await findDocument(spec.read, newId())).toBeUndefined();
  });

  it('puts each new document on top of its own organisation only', async () => {
    spec = await projectorSpec(documentsProjector);
    const [tartu, narva] = [newId(), newId()];
    await spec.given(
      created(newId(), tartu, 'Eelarve 2026', '2026-01-05T08:00:00.000Z'),
      created(newId(), tartu, 'Eelarve 2027', '2026-11-02T08:00:00.000Z'),
      created(newId(), narva, 'Narva eelarve 2027'),
    );
    const tartuRows = await listOrganizationDocuments(spec.read, tartu);
    expect(tartuRows.map((row) => [row.name, row.sort_order])).toEqual([
      ['Eelarve 2027', 2],
      ['Eelarve 2026', 1],
    ]);
    expect((await listOrganizationDocuments(spec.read, narva)).map((row) => [row.name, row.sort_order])).toEqual([['Narva eelarve 2027', 1]]);
  });

  it('given an update, holds the new settings and master classifier', async () => {
    spec = await projectorSpec(documentsProjector);
    const [documentId, organizationId, classifierId, statusId] = [newId(), newId(), newId(), newId()];
    await spec.given(created(documentId, organizationId, 'Eelarve 2027'), {
      stream: `document-${documentId}`,
      type: 'DocumentUpdated',
      data: {
        documentId,
        organizationId,
        name: 'Lisaeelarve 2027',
        description: '',
        period: { year: 2027, month: 7, duration: 2 },
        masterClassifierId: classifierId,
        recordAmountKey: 'eelarve',
        allowCommentingWithReadPermissions: true,
        resourceStatusId: statusId,
      },
    });
    expect(await findDocument(spec.read, documentId)).toMatchObject({
      name: 'Lisaeelarve 2027',
      description: '',
      period_year: 2027,
      period_month: 7,
      period_duration: 2,
      master_classifier_id: classifierId,
      record_amount_key: 'eelarve',
      allow_commenting_with_read_permissions: true,
      resource_status_id: statusId,
      sort_order: 1,
    });
  });

  it('given a deletion, neither finds nor lists the document', async () => {
    spec = await projectorSpec(documentsProjector);
    const [kept, deleted, organizationId] = [newId(), newId(), newId()];
    await spec.given(created(kept, organizationId, 'Eelarve 2027'), created(deleted, organizationId, 'Kustutatav'), {
      stream: `document-${deleted}`,
      type: 'DocumentDeleted',
      data: { documentId: deleted, organizationId },
    });
    expect(await findDocument(spec.read, deleted)).toBeUndefined();
    expect(await names(organizationId)).toEqual(['Eelarve 2027']);
    expect(await countOrganizationDocuments(spec.read, organizationId, [kept, deleted])).toBe(1);
  });

  it("given a reorder, lists in the new order and leaves another organisation's document alone", async () => {
    spec = await projectorSpec(documentsProjector);
    const [a, b, c, foreign, tartu, narva] = [newId(), newId(), newId(), newId(), newId(), newId()];
    await spec.given(
      created(a, tartu, 'A'),
      created(b, tartu, 'B'),
      created(c, tartu, 'C'),
      created(foreign, narva, 'Narva'),
      reordered(tartu, [
        { id: a, order: 3 },
        { id: c, order: 2 },
        { id: b, order: 1 },
        { id: foreign, order: 9 },
      ]),
    );
    expect(await names(tartu)).toEqual(['A', 'C', 'B']);
    expect((await findDocument(spec.read, foreign))?.sort_order).toBe(1);
    expect(await countOrganizationDocuments(spec.read, tartu, [a, b, c])).toBe(3);
    expect(await countOrganizationDocuments(spec.read, tartu, [a, foreign])).toBe(1);
    expect(await countOrganizationDocuments(spec.read, tartu, [])).toBe(0);
  });

  it('never orders a new document past the integer column; on equal order the newer comes first', async () => {
    spec = await projectorSpec(documentsProjector);
    const [top, organizationId] = [newId(), newId()];
    await spec.given(
      created(top, organizationId, 'Üleval'),
      reordered(organizationId, [{ id: top, order: LIMITS.integerMax }]),
      created(newId(), organizationId, 'Uus', '2026-11-03T08:00:00.000Z'),
    );
    expect((await listOrganizationDocuments(spec.read, organizationId)).map((row) => [row.name, row.sort_order])).toEqual([
      ['Uus', LIMITS.integerMax],
      ['Üleval', LIMITS.integerMax],
    ]);
  });
});

describe("documents queries: the master classifier's facts", () => {
  const classifier = (
    classifierId: string,
    documentId: string,
    organizationId: string,
    fieldName: string,
    facts: { required: boolean; groupingId: string | null },
  ) => ({
    stream: `classifier-${classifierId}`,
    type: 'ClassifierCreated',
    data: {
      classifierId,
      documentId,
      organizationId,
      groupingId: facts.groupingId,
      name: fieldName,
      itemName: fieldName,
      fieldName,
      description: '',
      required: facts.required,
      itemCanChangeSign: false,
      primary: false,
      primaryGroupedById: null,
      displayOrder: 1,
      displayMode: 'CODE_AND_NAME',
      codeSettings: { typeName: 'Code', minLength: 1, maxLength: 10, hierarchical: false, typeRegex: '^[A-Za-z0-9._\\-/]+$', regexFlag: '', ranking: 2 },
    },
  });

  it('answers whether a document has classifiers, what a candidate is, and whether a scheme uses it', async () => {
    spec = await projectorSpec([documentsProjector, classifiersProjector, schemesProjector]);
    const [documentId, emptyDocumentId, organizationId] = [newId(), newId(), newId()];
    const [activity, activityGroup, source, schemeId] = [newId(), newId(), newId(), newId()];
    await spec.given(
      created(documentId, organizationId, 'Eelarve 2027'),
      created(emptyDocumentId, organizationId, 'Tühi'),
      classifier(activityGroup, documentId, organizationId, 'tegevusala_grupp', { required: true, groupingId: null }),
      classifier(activity, documentId, organizationId, 'tegevusala', { required: true, groupingId: activityGroup }),
      classifier(source, documentId, organizationId, 'allikas', { required: false, groupingId: null }),
      {
        stream: `document-schemes-${documentId}`,
        type: 'SchemeCreated',
        data: {
          schemeId,
          documentId,
          organizationId,
          name: 'Kulud',
          fieldName: 'kulud',
          description: '',
          displayOrder: 1,
          classifierList: [{ classifierId: source, type: 'MAIN' }],
        },
      },
    );
    expect(await documentHasClassifiers(spec.read, documentId)).toBe(true);
    expect(await documentHasClassifiers(spec.read, emptyDocumentId)).toBe(false);
    expect(await masterClassifierCandidate(spec.read, documentId, activityGroup)).toEqual({ required: true, grouping_id: null });
    expect(await masterClassifierCandidate(spec.read, documentId, activity)).toEqual({ required: true, grouping_id: activityGroup });
    expect(await masterClassifierCandidate(spec.read, emptyDocumentId, activity)).toBeUndefined();
    expect(await classifierUsedInScheme(spec.read, documentId, source)).toBe(true);
    expect(await classifierUsedInScheme(spec.read, documentId, activityGroup)).toBe(false);
  });
});
