import type { DomainError } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { expectDomainError, givenFor } from '../testing';
import { type BudgetCommand, budgetDecider, budgetOrderDecider, checkSumComponents } from './decider';
import type { BudgetCreated, BudgetEvent } from './events';

const budgetId = '11111111-1111-4111-8111-111111111111';
const documentId = '22222222-2222-4222-8222-222222222222';
const organizationId = '33333333-3333-4333-8333-333333333333';
const a = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const b = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const s = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
const now = new Date('2026-01-02T03:04:05Z');

const given = givenFor<BudgetCommand, BudgetEvent, ReturnType<typeof budgetDecider.initialState>>(budgetDecider);

const expectCode = expectDomainError;

const create: Extract<BudgetCommand, { type: 'CreateBudget' }> = {
  type: 'CreateBudget',
  budgetId,
  documentId,
  organizationId,
  budgetType: 'COMMON',
  name: 'Main',
  description: '',
  tags: [' x ', 'x', 'y'],
  resourceStatusId: null,
  sumBudgetComponentIds: [],
  now,
  documentHasMasterClassifier: true,
};
const created: BudgetCreated = {
  type: 'BudgetCreated',
  data: {
    budgetId,
    documentId,
    organizationId,
    type: 'COMMON',
    name: 'Main',
    description: '',
    tags: ['x', 'y'],
    resourceStatusId: null,
    sumBudgetComponentIds: [],
    gwUrl: null,
    erpUrl: null,
    createdAt: now.toISOString(),
  },
};
const facts = [
  { id: a, sumBudgetComponentIds: [] },
  { id: b, sumBudgetComponentIds: [] },
  { id: s, sumBudgetComponentIds: [a] },
];
const sumCreated: BudgetEvent = { type: 'BudgetCreated', data: { ...created.data, type: 'SUM_BUDGET', sumBudgetComponentIds: [a] } };
const monitoringCreated: BudgetEvent = { type: 'BudgetCreated', data: { ...created.data, type: 'MONITORING' } };

describe('budget decider', () => {
  it('creates a common budget with trimmed distinct tags', () => {
    expect(given([]).when(create)()).toEqual([created]);
  });

  it('refuses a budget when the document has no master classifier', () => {
    expectCode(given([]).when({ ...create, documentHasMasterClassifier: false }), 'DOCUMENT_MISSING_MASTER_CLASSIFIER');
  });

  it('allows at most three tags', () => {
    expectCode(given([]).when({ ...create, tags: ['a', 'b', 'c', 'd'] }), 'SCHEMA_VALIDATION_ERROR');
    expectCode(given([created]).when({ type: 'SetBudgetTags', budgetId, tags: ['a', 'b', 'c', 'd'] }), 'SCHEMA_VALIDATION_ERROR');
    expect(given([created]).when({ type: 'SetBudgetTags', budgetId, tags: ['y', 'x'] })()).toHaveLength(1);
    expect(given([created]).when({ type: 'SetBudgetTags', budgetId, tags: ['x', 'y'] })()).toEqual([]);
  });

  it('checks sum budget components', () => {
    const sum = { ...create, budgetType: 'SUM_BUDGET' as const, componentFacts: facts };
    expectCode(given([]).when({ ...sum, sumBudgetComponentIds: [] }), 'SUM_BUDGET_NO_COMPONENTS');
    expectCode(given([]).when({ ...sum, sumBudgetComponentIds: [budgetId] }), 'SUM_BUDGET_SELF_REFERENCE');
    expectCode(given([]).when({ ...sum, sumBudgetComponentIds: [a, s] }), 'COMPONENT_ALREADY_IN_USE');
    expectCode(given([]).when({ ...sum, sumBudgetComponentIds: ['dddddddd-dddd-4ddd-8ddd-dddddddddddd'] }), 'SUM_BUDGET_COMPONENT_NOT_FOUND');
    expectCode(
      given([]).when({ ...sum, sumBudgetComponentIds: [a], componentFacts: [{ id: a, sumBudgetComponentIds: [], readDisabledByStatus: true }] }),
      'COMPONENT_READ_DISABLED_BY_STATUS',
    );
    const events = given([]).when({ ...sum, sumBudgetComponentIds: [a, b, a] })();
    expect(events[0]?.data).toMatchObject({ type: 'SUM_BUDGET', sumBudgetComponentIds: [a, b] });
  });

  it('finds cycles through nested sum budgets', () => {
    // s adds up budgetId (through t); budgetId may not add up s.
    const t = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';
    const graph = [
      { id: a, sumBudgetComponentIds: [] },
      { id: t, sumBudgetComponentIds: [budgetId] },
      { id: s, sumBudgetComponentIds: [t] },
      { id: budgetId, sumBudgetComponentIds: [a] },
    ];
    expectCode(() => checkSumComponents(budgetId, [s], graph), 'SUM_BUDGET_CYCLE');
    expectCode(
      given([sumCreated]).when({
        type: 'UpdateBudget',
        budgetId,
        name: 'Main',
        description: '',
        resourceStatusId: null,
        sumBudgetComponentIds: [s],
        componentFacts: graph,
      }),
      'SUM_BUDGET_CYCLE',
    );
    expect(checkSumComponents(budgetId, [a], graph)).toEqual([a]);
  });

  it('refuses an unreadable component, but still sees cycles through unreadable sum budgets', () => {
    const t = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';
    const graph = [
      { id: a, sumBudgetComponentIds: [] },
      { id: t, sumBudgetComponentIds: [budgetId], readable: false },
      { id: s, sumBudgetComponentIds: [t] },
    ];
    expectCode(() => checkSumComponents(budgetId, [t], graph), 'SUM_BUDGET_COMPONENT_NOT_FOUND');
    expectCode(() => checkSumComponents(budgetId, [s], graph), 'SUM_BUDGET_CYCLE');
  });

  it('keeps the type fixed', () => {
    expectCode(
      given([created]).when({
        type: 'UpdateBudget',
        budgetId,
        budgetType: 'MONITORING',
        name: 'X',
        description: '',
        resourceStatusId: null,
        sumBudgetComponentIds: [],
      }),
      'BUDGET_TYPE_IMMUTABLE',
    );
  });

  it('gives gateway and ERP URLs to monitoring budgets only and keeps them when omitted', () => {
    expectCode(given([]).when({ ...create, gwUrl: 'https://gw.example' }), 'SCHEMA_VALIDATION_ERROR');
    const set = given([monitoringCreated]).when({
      type: 'UpdateBudget',
      budgetId,
      name: 'Main',
      description: '',
      resourceStatusId: null,
      sumBudgetComponentIds: [],
      gwUrl: 'https://gw.example',
      erpUrl: null,
    })();
    expect(set[0]?.data).toMatchObject({ gwUrl: 'https://gw.example', erpUrl: null });
    const kept = given([monitoringCreated, ...set]).when({
      type: 'UpdateBudget',
      budgetId,
      name: 'Renamed',
      description: '',
      resourceStatusId: null,
      sumBudgetComponentIds: [],
    })();
    expect(kept[0]?.data).toMatchObject({ name: 'Renamed', gwUrl: 'https://gw.example' });
  });

  it('sets sync and issues API keys for monitoring budgets only', () => {
    expectCode(given([created]).when({ type: 'SetBudgetSync', budgetId, enabled: true }), 'BUDGET_NOT_MONITORING');
    expectCode(given([created]).when({ type: 'IssueBudgetApiKey', budgetId, now }), 'BUDGET_NOT_MONITORING');
    const on = given([monitoringCreated]).when({ type: 'SetBudgetSync', budgetId, enabled: true })();
    expect(on).toHaveLength(1);
    expect(given([monitoringCreated, ...on]).when({ type: 'SetBudgetSync', budgetId, enabled: true })()).toEqual([]);
  });

  it('validates copy choices', () => {
    const copy = {
      sourceBudgetId: a,
      copyPermissions: false,
      schemes: [{ schemeId: s, copyPinnedPreselections: true, copySubBudgetPermissions: false, copyComments: false }],
    };
    expect(given([]).when({ ...create, copiedFrom: copy })()[0]?.data).toMatchObject({ copiedFrom: copy });
    expectCode(given([]).when({ ...create, budgetType: 'MONITORING', copiedFrom: copy }), 'BUDGET_COPY_INVALID_SCHEME_PARAMETERS');
    expectCode(given([]).when({ ...create, copiedFrom: { ...copy, schemes: [] } }), 'BUDGET_COPY_INVALID_SCHEME_PARAMETERS');
    expectCode(
      given([]).when({ ...create, budgetType: 'SUM_BUDGET', sumBudgetComponentIds: [a], componentFacts: facts, copiedFrom: copy }),
      'SCHEMA_VALIDATION_ERROR',
    );
  });

  it('names the field a rule refuses, not where the request carried it', () => {
    const detailsOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as DomainError).details;
      }
      throw new Error('the command was not refused');
    };
    expect(detailsOf(given([]).when({ ...create, tags: ['a', 'b', 'c', 'd'] }))).toEqual([{ field: 'tags', message: 'validation.max' }]);
    expect(detailsOf(given([]).when({ ...create, erpUrl: 'https://erp.example' }))).toEqual([{ field: 'erpUrl', message: 'validation.invalid' }]);
    expect(detailsOf(given([]).when({ ...create, sumBudgetComponentIds: [a] }))).toEqual([{ field: 'sumBudgetComponentIds', message: 'validation.invalid' }]);
    const copy = { sourceBudgetId: a, copyPermissions: true, schemes: [] };
    expect(detailsOf(given([]).when({ ...create, budgetType: 'SUM_BUDGET', sumBudgetComponentIds: [a], componentFacts: facts, copiedFrom: copy }))).toEqual([
      { field: 'copy', message: 'validation.invalid' },
    ]);
    const twice = () =>
      budgetOrderDecider.decide(
        {
          type: 'ReorderBudgets',
          documentId,
          list: [
            { id: a, order: 2 },
            { id: a, order: 1 },
          ],
        },
        { revision: 0 },
      );
    expect(detailsOf(twice)).toEqual([{ field: 'list', message: 'validation.unique' }]);
  });

  it('refuses to delete a budget that a sum budget adds up, then deletes', () => {
    expectCode(given([created]).when({ type: 'DeleteBudget', budgetId, usedAsComponentBy: [s] }), 'BUDGET_USED_AS_SUM_COMPONENT');
    const deleted = given([created]).when({ type: 'DeleteBudget', budgetId, usedAsComponentBy: [] })();
    expectCode(given([created, ...deleted]).when({ type: 'SetBudgetTags', budgetId, tags: [] }), 'BUDGET_NOT_FOUND');
  });

  it('orders budgets, refusing duplicates', () => {
    expectCode(
      () =>
        budgetOrderDecider.decide(
          {
            type: 'ReorderBudgets',
            documentId,
            list: [
              { id: a, order: 2 },
              { id: a, order: 1 },
            ],
          },
          { revision: 0 },
        ),
      'SCHEMA_VALIDATION_ERROR',
    );
    expect(
      budgetOrderDecider.decide(
        {
          type: 'ReorderBudgets',
          documentId,
          list: [
            { id: a, order: 2 },
            { id: b, order: 1 },
          ],
        },
        { revision: 0 },
      ),
    ).toHaveLength(1);
  });
});
