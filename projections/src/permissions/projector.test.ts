import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GivenEvent, type ProjectorSpec, newId, projectorSpec } from '../../test/given-events';
import { budgetsProjector } from '../budgets/projector';
import { documentsProjector } from '../documents/projector';
import { schemesProjector } from '../schemes/projector';
import { permissionsProjector } from './projector';
import {
  budgetGrant,
  documentGrant,
  documentPermissions,
  effectiveFlags,
  grantsOn,
  levelGrants,
  occupationPermissions,
  subBudgetIdsGrantedOneByOne,
} from './queries';

let spec: ProjectorSpec;
// The effective queries fold grants over the document's budgets and sub-budgets: their projectors run beside.
beforeEach(async () => {
  spec = await projectorSpec([permissionsProjector, budgetsProjector, documentsProjector, schemesProjector] as never);
});
afterEach(async () => spec.close());

const organizationId = newId();
const documentId = newId();
const schemeId = newId();
const [budgetA, budgetB] = [newId(), newId()];
const [school, kindergarten] = [newId(), newId()];
const [finance, education] = [newId(), newId()];

const tree: GivenEvent[] = [
  {
    stream: `document-${documentId}`,
    type: 'DocumentCreated',
    data: {
      documentId,
      organizationId,
      name: 'Eelarve 2027',
      description: '',
      period: { year: 2027, month: 1, duration: 1 },
      recordAmountKey: 'amount',
      allowCommentingWithReadPermissions: false,
      resourceStatusId: null,
      createdAt: '2026-11-01T08:00:00.000Z',
    },
  },
  ...[budgetA, budgetB].map((budgetId, index) => ({
    stream: `budget-${budgetId}`,
    type: 'BudgetCreated',
    data: {
      budgetId,
      documentId,
      organizationId,
      type: 'COMMON',
      name: `Eelarve ${index}`,
      description: '',
      tags: [],
      resourceStatusId: null,
      sumBudgetComponentIds: [],
      gwUrl: null,
      erpUrl: null,
      createdAt: `2026-11-02T08:00:0${index}.000Z`,
    },
  })),
  {
    stream: `document-schemes-${documentId}`,
    type: 'SchemeCreated',
    data: { documentId, organizationId, schemeId, name: 'Kulud', fieldName: 'kulud', description: '', displayOrder: 1, classifierList: [] },
  },
  {
    stream: `document-schemes-${documentId}`,
    type: 'SubBudgetsAdded',
    data: {
      documentId,
      organizationId,
      schemeId,
      subBudgets: [
        { subBudgetId: school, name: 'Kool', classifiers: {}, preselections: {} },
        { subBudgetId: kindergarten, name: 'Lasteaed', classifiers: {}, preselections: {} },
      ],
    },
  },
];

type Grant = { budgetId: string | null; subBudgetId: string | null; read: boolean; update: boolean };
const grantsSet = (occupationId: string, document: string | null, grants: Grant[]): GivenEvent => ({
  stream: `resource-permissions-${occupationId}-${document ?? 'organization'}`,
  type: 'ResourcePermissionsSet',
  data: { occupationId, organizationId, documentId: document, grants },
});
const g = (budgetId: string | null, subBudgetId: string | null, read: boolean, update: boolean): Grant => ({ budgetId, subBudgetId, read, update });
const sorted = (ids: { id: string }[]) => ids.map((row) => row.id).sort();

describe('permissions projector', () => {
  it('given grants on a budget and a sub-budget, folds them into effective permissions down the chain', async () => {
    await spec.given(...tree, grantsSet(finance, documentId, [g(budgetA, null, true, false), g(budgetA, school, true, true)]));
    const rows = await occupationPermissions(spec.read, organizationId, finance, documentId);
    expect(rows).toEqual([
      { occupationId: finance, documentId: null, budgetId: null, subBudgetId: null, read: false, update: false, inheritedRead: false, inheritedUpdate: false },
      { occupationId: finance, documentId, budgetId: null, subBudgetId: null, read: false, update: false, inheritedRead: false, inheritedUpdate: false },
      { occupationId: finance, documentId, budgetId: budgetA, subBudgetId: null, read: true, update: false, inheritedRead: false, inheritedUpdate: false },
      { occupationId: finance, documentId, budgetId: budgetA, subBudgetId: school, read: true, update: true, inheritedRead: true, inheritedUpdate: false },
      { occupationId: finance, documentId, budgetId: budgetB, subBudgetId: null, read: false, update: false, inheritedRead: false, inheritedUpdate: false },
    ]);
    expect(await effectiveFlags(spec.read, finance, { organizationId, documentId, budgetId: budgetA, subBudgetId: school })).toEqual({
      own: { read: true, update: true },
      inherited: { read: true, update: false },
    });
  });

  it('sums the grants of a list in one query, and filters sub-budgets in SQL', async () => {
    await spec.given(...tree, grantsSet(finance, documentId, [g(budgetA, null, true, false), g(budgetA, school, true, true)]));
    const grants = await levelGrants(spec.read, finance, organizationId, documentId);
    const budgets = (action: 'read' | 'update') =>
      [budgetA, budgetB].filter((budgetId) => budgetGrant(grants, documentId, budgetId)[action]).map((id) => ({ id }));
    const subBudgets = (budgetId: string, action: 'read' | 'update') =>
      spec.read
        .selectFrom('sub_budgets')
        .select('id')
        .where('id', 'in', subBudgetIdsGrantedOneByOne(spec.read, finance, budgetId, action))
        .execute();
    expect(sorted(await budgets('read'))).toEqual([budgetA]);
    expect(await budgets('update')).toEqual([]);
    // Budget A is read as a whole (every sub-budget, no filter); one by one, only the school is granted.
    expect(sorted(await subBudgets(budgetA, 'read'))).toEqual([school]);
    expect(sorted(await subBudgets(budgetA, 'update'))).toEqual([school]);
    expect(await subBudgets(budgetB, 'read')).toEqual([]);
    // The document is read through the budget granted in it, not updated.
    expect(documentGrant(grants, documentId)).toEqual({ read: true, update: false });
  });

  it('a grant on one sub-budget makes its budget and document readable, nothing more', async () => {
    await spec.given(...tree, grantsSet(finance, documentId, [g(budgetB, kindergarten, true, true)]));
    const grants = await levelGrants(spec.read, finance, organizationId, documentId);
    expect(budgetGrant(grants, documentId, budgetB)).toEqual({ read: true, update: false });
    expect(budgetGrant(grants, documentId, budgetA)).toEqual({ read: false, update: false });
    expect(await grantsOn(spec.read, finance, { organizationId, documentId, budgetId: budgetB })).toEqual({ read: true, update: false });
    expect(await grantsOn(spec.read, finance, { organizationId, documentId, budgetId: budgetB, subBudgetId: kindergarten })).toEqual({
      read: true,
      update: true,
    });
    expect(await grantsOn(spec.read, finance, { organizationId, documentId })).toEqual({ read: true, update: false });
    const subBudgets = await spec.read
      .selectFrom('sub_budgets')
      .select('id')
      .where('id', 'in', subBudgetIdsGrantedOneByOne(spec.read, finance, budgetB, 'read'))
      .execute();
    expect(subBudgets.map((row) => row.id)).toEqual([kindergarten]);
  });

  it('given an organisation grant, everything below inherits it', async () => {
    await spec.given(...tree, grantsSet(education, null, [g(null, null, true, true)]));
    const grants = await levelGrants(spec.read, education, organizationId, documentId);
    expect([budgetA, budgetB].map((budgetId) => budgetGrant(grants, documentId, budgetId))).toEqual([
      { read: true, update: true },
      { read: true, update: true },
    ]);
    expect((await grantsOn(spec.read, education, { organizationId, documentId, budgetId: budgetB, subBudgetId: kindergarten })).update).toBe(true);
    expect((await grantsOn(spec.read, education, { organizationId: newId(), documentId })).read).toBe(false);
    const documents = await occupationPermissions(spec.read, organizationId, education, null);
    expect(documents).toEqual([
      { occupationId: education, documentId: null, budgetId: null, subBudgetId: null, read: true, update: true, inheritedRead: false, inheritedUpdate: false },
      { occupationId: education, documentId, budgetId: null, subBudgetId: null, read: false, update: false, inheritedRead: true, inheritedUpdate: true },
    ]);
  });

  it('given a removal, the grant is gone', async () => {
    await spec.given(...tree, grantsSet(finance, documentId, [g(null, null, true, false)]), grantsSet(finance, documentId, [g(null, null, false, false)]));
    expect((await grantsOn(spec.read, finance, { organizationId, documentId })).read).toBe(false);
    expect(await spec.read.selectFrom('resource_permissions').selectAll().execute()).toEqual([]);
  });

  it('given a copy, the stream holds exactly the copied grants', async () => {
    await spec.given(...tree, grantsSet(finance, documentId, [g(budgetA, null, true, false), g(budgetB, null, true, true)]), {
      stream: `resource-permissions-${finance}-${documentId}`,
      type: 'ResourcePermissionsReplaced',
      data: { occupationId: finance, organizationId, documentId, grants: [g(budgetB, kindergarten, true, false)], copiedFromOccupationId: education },
    });
    const rows = await spec.read.selectFrom('resource_permissions').select(['budget_id', 'sub_budget_id', 'read', 'update']).execute();
    expect(rows).toEqual([{ budget_id: budgetB, sub_budget_id: kindergarten, read: true, update: false }]);
  });

  it('lists every occupation that has something in the document, and leaves out what grants nothing', async () => {
    await spec.given(...tree, grantsSet(finance, documentId, [g(budgetB, school, true, false)]), grantsSet(education, null, [g(null, null, true, false)]));
    const rows = await documentPermissions(spec.read, organizationId, documentId);
    const finances = rows.filter((row) => row.occupationId === finance);
    expect(finances).toEqual([
      { occupationId: finance, documentId, budgetId: budgetB, subBudgetId: school, read: true, update: false, inheritedRead: false, inheritedUpdate: false },
    ]);
    // The organisation grant reaches the document and both budgets.
    expect(rows.filter((row) => row.occupationId === education).map((row) => [row.budgetId, row.read, row.inheritedRead])).toEqual([
      [null, true, false],
      [null, false, true],
      [budgetA, false, true],
      [budgetB, false, true],
    ]);
  });
});
