import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GivenEvent, type ProjectorSpec, newId, projectorSpec } from '../../test/given-events';
import { documentsProjector } from '../documents/projector';
import { schemesProjector } from '../schemes/projector';
import { budgetsProjector } from './projector';
import { adminBudgets, budgetStructures, documentBudgets, documentHasMasterClassifier, findBudget, organizationBudgets, sumBudgetsUsing } from './queries';

let spec: ProjectorSpec;
// The budgets queries also read documents (names, master classifier) and schemes (pins): their projectors run beside.
beforeEach(async () => {
  spec = await projectorSpec([budgetsProjector, documentsProjector, schemesProjector] as never);
});
afterEach(async () => spec.close());

const organizationId = newId();

type BudgetType = 'COMMON' | 'SUM_BUDGET' | 'MONITORING';
interface BudgetSetup {
  budgetId?: string;
  documentId: string;
  name: string;
  type?: BudgetType;
  components?: string[];
  createdAt?: string;
  copiedFrom?: unknown;
}

function budgetCreated({
  budgetId = newId(),
  documentId,
  name,
  type = 'COMMON',
  components = [],
  createdAt = '2026-11-02T08:00:00.000Z',
  copiedFrom,
}: BudgetSetup) {
  return {
    stream: `budget-${budgetId}`,
    type: 'BudgetCreated',
    data: {
      budgetId,
      documentId,
      organizationId,
      type,
      name,
      description: `${name}: tulud ja kulud`,
      tags: ['2027'],
      resourceStatusId: null,
      sumBudgetComponentIds: components,
      gwUrl: type === 'MONITORING' ? 'https://gw.tartu.ee/feed' : null,
      erpUrl: null,
      createdAt,
      ...(copiedFrom ? { copiedFrom } : {}),
    },
  } satisfies GivenEvent;
}

const budgetEvent = (budgetId: string, documentId: string, type: string, data: object): GivenEvent => ({
  stream: `budget-${budgetId}`,
  type,
  data: { budgetId, documentId, organizationId, ...data },
});

const settings = {
  description: '',
  period: { year: 2027, month: 1, duration: 1 },
  recordAmountKey: 'amount',
  allowCommentingWithReadPermissions: false,
  resourceStatusId: null,
};
const documentCreated = (documentId: string, name: string): GivenEvent => ({
  stream: `document-${documentId}`,
  type: 'DocumentCreated',
  data: { ...settings, documentId, organizationId, name, createdAt: '2026-11-01T08:00:00.000Z' },
});
const documentUpdated = (documentId: string, name: string, masterClassifierId: string | null): GivenEvent => ({
  stream: `document-${documentId}`,
  type: 'DocumentUpdated',
  data: { ...settings, documentId, organizationId, name, masterClassifierId },
});
const documentDeleted = (documentId: string): GivenEvent => ({
  stream: `document-${documentId}`,
  type: 'DocumentDeleted',
  data: { documentId, organizationId },
});

const names = (rows: { name: string }[]) => rows.map((row) => row.name);

describe('budgets projector', () => {
  it('given a created common budget, finds it with its fields and no components', async () => {
    const documentId = newId();
    const created = budgetCreated({ documentId, name: 'Haridusosakond' });
    await spec.given(created);
    const row = await findBudget(spec.read, created.data.budgetId);
    expect(row).toMatchObject({
      id: created.data.budgetId,
      document_id: documentId,
      organization_id: organizationId,
      name: 'Haridusosakond',
      description: 'Haridusosakond: tulud ja kulud',
      type: 'COMMON',
      tags: ['2027'],
      resource_status_id: null,
      sum_budget_component_ids: [],
      api_url: null,
      gw_url: null,
      sync_enabled: false,
      last_execution_time: null,
      copied_from: null,
    });
    expect(row?.created_at.toISOString()).toBe('2026-11-02T08:00:00.000Z');
    expect(await findBudget(spec.read, newId())).toBeUndefined();
  });

  it('gives a monitoring budget its import path and keeps what a copied budget was copied from', async () => {
    const documentId = newId();
    const source = budgetCreated({ documentId, name: 'Linnavalitsus' });
    const copiedFrom = {
      sourceBudgetId: source.data.budgetId,
      copyPermissions: false,
      schemes: [{ schemeId: newId(), copyPinnedPreselections: false, copySubBudgetPermissions: true, copyComments: false }],
    };
    const monitoring = budgetCreated({ documentId, name: 'Seire', type: 'MONITORING', copiedFrom });
    await spec.given(source, monitoring);
    const row = await findBudget(spec.read, monitoring.data.budgetId);
    expect(row).toMatchObject({
      type: 'MONITORING',
      api_url: `/budgets/${monitoring.data.budgetId}/import`,
      gw_url: 'https://gw.tartu.ee/feed',
      copied_from: copiedFrom,
    });
  });

  it('puts each new budget last in its document, and a replayed creation changes nothing', async () => {
    const [documentId, otherDocumentId] = [newId(), newId()];
    const first = budgetCreated({ documentId, name: 'Haridus' });
    const second = budgetCreated({ documentId, name: 'Kultuur' });
    await spec.given(first, budgetCreated({ documentId: otherDocumentId, name: 'Muu dokument' }), second, {
      ...first,
      data: { ...first.data, name: 'Teistkordne' },
    });
    const rows = await documentBudgets(spec.read, documentId);
    expect(rows.map((row) => [row.name, row.sort_order])).toEqual([
      ['Haridus', 0],
      ['Kultuur', -1],
    ]);
  });

  it('applies an update to the name, description, components and monitoring URLs', async () => {
    const documentId = newId();
    const [education, culture] = [budgetCreated({ documentId, name: 'Haridus' }), budgetCreated({ documentId, name: 'Kultuur' })];
    const sum = budgetCreated({ documentId, name: 'Kokku', type: 'SUM_BUDGET', components: [education.data.budgetId] });
    await spec.given(
      education,
      culture,
      sum,
      budgetEvent(sum.data.budgetId, documentId, 'BudgetUpdated', {
        name: 'Valdkonnad kokku',
        description: 'Haridus ja kultuur',
        resourceStatusId: null,
        sumBudgetComponentIds: [education.data.budgetId, culture.data.budgetId],
        gwUrl: null,
        erpUrl: null,
      }),
    );
    expect(await findBudget(spec.read, sum.data.budgetId)).toMatchObject({
      name: 'Valdkonnad kokku',
      description: 'Haridus ja kultuur',
      sum_budget_component_ids: [education.data.budgetId, culture.data.budgetId],
    });
    expect(await sumBudgetsUsing(spec.read, culture.data.budgetId)).toEqual([sum.data.budgetId]);
    expect(await sumBudgetsUsing(spec.read, sum.data.budgetId)).toEqual([]);
  });

  it('sets tags and synchronisation; an issued API key leaves the row as it was', async () => {
    const documentId = newId();
    const monitoring = budgetCreated({ documentId, name: 'Seire', type: 'MONITORING' });
    const { budgetId } = monitoring.data;
    await spec.given(
      monitoring,
      budgetEvent(budgetId, documentId, 'BudgetTagsSet', { tags: ['seire', 'ERP'] }),
      budgetEvent(budgetId, documentId, 'BudgetSyncSet', { enabled: true }),
    );
    const before = await findBudget(spec.read, budgetId);
    expect(before).toMatchObject({ tags: ['seire', 'ERP'], sync_enabled: true });
    await spec.given(budgetEvent(budgetId, documentId, 'BudgetApiKeyIssued', { issuedAt: '2026-11-03T09:00:00.000Z' }));
    expect(await findBudget(spec.read, budgetId)).toEqual(before);
  });

  it('removes a deleted budget and takes it out of the sum budgets that added it up', async () => {
    const documentId = newId();
    const [education, culture] = [budgetCreated({ documentId, name: 'Haridus' }), budgetCreated({ documentId, name: 'Kultuur' })];
    const sum = budgetCreated({ documentId, name: 'Kokku', type: 'SUM_BUDGET', components: [education.data.budgetId, culture.data.budgetId] });
    await spec.given(education, culture, sum, budgetEvent(culture.data.budgetId, documentId, 'BudgetDeleted', {}));
    expect(await findBudget(spec.read, culture.data.budgetId)).toBeUndefined();
    expect((await findBudget(spec.read, sum.data.budgetId))?.sum_budget_component_ids).toEqual([education.data.budgetId]);
    expect(await sumBudgetsUsing(spec.read, culture.data.budgetId)).toEqual([]);
    expect(names(await documentBudgets(spec.read, documentId))).toEqual(['Haridus', 'Kokku']);
  });

  it('reorders the budgets of the document named, leaving another document’s alone', async () => {
    const [documentId, otherDocumentId] = [newId(), newId()];
    const [a, b, c] = [
      budgetCreated({ documentId, name: 'Haridus' }),
      budgetCreated({ documentId, name: 'Kultuur' }),
      budgetCreated({ documentId, name: 'Sport' }),
    ];
    const other = budgetCreated({ documentId: otherDocumentId, name: 'Muu dokument' });
    await spec.given(a, b, c, other, {
      stream: `budgetorder-${documentId}`,
      type: 'BudgetsReordered',
      data: {
        documentId,
        list: [
          { id: c.data.budgetId, order: 3 },
          { id: a.data.budgetId, order: 2 },
          { id: b.data.budgetId, order: 1 },
          // A budget of another document in the list does not move.
          { id: other.data.budgetId, order: 9 },
        ],
      },
    });
    expect(names(await documentBudgets(spec.read, documentId))).toEqual(['Sport', 'Haridus', 'Kultuur']);
    expect((await findBudget(spec.read, other.data.budgetId))?.sort_order).toBe(0);
  });

  it('lists the organisation’s budgets document by document, and a deleted document takes its budgets along', async () => {
    const [documentId, otherDocumentId] = [newId(), newId()];
    const kept = budgetCreated({ documentId: otherDocumentId, name: 'Jääb alles' });
    await spec.given(budgetCreated({ documentId, name: 'Haridus' }), budgetCreated({ documentId, name: 'Kultuur' }), kept);
    const byDocument = (await organizationBudgets(spec.read, organizationId)).map((row) => [row.document_id, row.name]);
    expect(byDocument).toEqual(
      [
        [documentId, 'Haridus'],
        [documentId, 'Kultuur'],
        [otherDocumentId, 'Jääb alles'],
      ].sort(([x], [y]) => ((x as string) < (y as string) ? -1 : 1)),
    );
    await spec.given(documentDeleted(documentId));
    expect(names(await organizationBudgets(spec.read, organizationId))).toEqual(['Jääb alles']);
    expect(await organizationBudgets(spec.read, newId())).toEqual([]);
  });

  it('answers the platform administration’s list with document names, by type and by ids', async () => {
    const documentId = newId();
    const common = budgetCreated({ documentId, name: 'Haridus' });
    const monitoring = budgetCreated({ documentId, name: 'Seire', type: 'MONITORING' });
    await spec.given(
      documentCreated(documentId, 'Tartu linna eelarve 2027'),
      common,
      monitoring,
      budgetEvent(monitoring.data.budgetId, documentId, 'BudgetSyncSet', { enabled: true }),
    );
    expect(await adminBudgets(spec.read, { type: 'MONITORING' })).toEqual([
      {
        id: monitoring.data.budgetId,
        name: 'Seire',
        type: 'MONITORING',
        document_id: documentId,
        organization_id: organizationId,
        sync_enabled: true,
        last_execution_time: null,
        document_name: 'Tartu linna eelarve 2027',
      },
    ]);
    expect(names(await adminBudgets(spec.read))).toEqual(['Haridus', 'Seire']);
    expect(names(await adminBudgets(spec.read, { budgetIds: [common.data.budgetId] }))).toEqual(['Haridus']);
    expect(await adminBudgets(spec.read, { budgetIds: [] })).toEqual([]);
  });

  it('tells whether the document has a master classifier', async () => {
    const documentId = newId();
    await spec.given(documentCreated(documentId, 'Tartu linna eelarve 2027'));
    expect(await documentHasMasterClassifier(spec.read, documentId)).toBe(false);
    await spec.given(documentUpdated(documentId, 'Tartu linna eelarve 2027', newId()));
    expect(await documentHasMasterClassifier(spec.read, documentId)).toBe(true);
    expect(await documentHasMasterClassifier(spec.read, newId())).toBe(false);
  });

  it('gives each budget its pinned sub-budgets, and a common budget the document’s schemes in display order', async () => {
    const documentId = newId();
    const common = budgetCreated({ documentId, name: 'Haridus' });
    const monitoring = budgetCreated({ documentId, name: 'Seire', type: 'MONITORING' });
    const [costs, income] = [newId(), newId()];
    const [school, kindergarten] = [newId(), newId()].sort();
    const schemeCreated = (schemeId: string, name: string, displayOrder: number): GivenEvent => ({
      stream: `document-schemes-${documentId}`,
      type: 'SchemeCreated',
      data: { documentId, organizationId, schemeId, name, fieldName: name.toLowerCase(), description: '', displayOrder, classifierList: [] },
    });
    const pinned = (budgetId: string, schemeId: string, subBudgetIds: string[]): GivenEvent => ({
      stream: `document-schemes-${documentId}`,
      type: 'SubBudgetsPinned',
      data: { documentId, organizationId, schemeId, budgetId, pinned: subBudgetIds },
    });
    await spec.given(
      common,
      monitoring,
      schemeCreated(income, 'Tulud', 2),
      schemeCreated(costs, 'Kulud', 1),
      pinned(common.data.budgetId, costs, [kindergarten as string, school as string]),
      pinned(monitoring.data.budgetId, income, [school as string]),
    );
    const rows = await documentBudgets(spec.read, documentId);
    const structures = await budgetStructures(spec.read, rows);
    expect(structures.get(common.data.budgetId)).toEqual({ pinnedSubBudgetIds: [school, kindergarten], schemaIds: [costs, income] });
    expect(structures.get(monitoring.data.budgetId)).toEqual({ pinnedSubBudgetIds: [school], schemaIds: [] });
    expect(await budgetStructures(spec.read, [])).toEqual(new Map());
  });
});
