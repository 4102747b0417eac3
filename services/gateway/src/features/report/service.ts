import { parsePosition } from '@eelarve/eventstore';
import { findBudget } from '@eelarve/projections/budgets/queries';
import { findDocument } from '@eelarve/projections/documents/queries';
import { subBudgetIdsGrantedOneByOne } from '@eelarve/projections/permissions/queries';
import { type ReportQuery, type ReportSource, reportAggregates } from '@eelarve/projections/report/queries';
import { findScheme } from '@eelarve/projections/schemes/queries';
import { DomainError, type ReportColumn, type ReportRequestParsed, type ReportResponse } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import type { AuthContext } from '../../types';
import { assertResourceAccess, canAccess, inOrganization, subBudgetAccess } from '../permissions/authorize';
import { schemeClassifierIds } from '../records/fitting';
import {
  BASE_KEY,
  calculatedColumns,
  type DocumentPeriod,
  expandedColumns,
  monthStart,
  type PlannedSumColumn,
  periodMonths,
  querySumColumns,
  sumColumn,
} from './columns';
import { type FilterClassifier, reportConditions } from './filters';
import { flattenReport } from './rows';

/**
 * The budget report (issue 12, points 1, 2 and 7): who may read what, which columns and
 * conditions, then one aggregate query on the report read model. Only what the caller reads is
 * counted: the base budget and every comparison budget need read access (refused otherwise), a
 * reader of some sub-budgets only sees and counts those (in every column), a sum budget counts
 * the components the caller reads.
 */

/** The report's read model, which record commands do not wait for: a report may wait for a command's position itself. */
export const REPORT_READ_MODELS = ['report'] as const;
const AFTER_TIMEOUT_MS = 5_000;

interface Budget {
  id: string;
  documentId: string;
  organizationId: string;
  name: string;
  type: string;
  componentIds: string[];
}

type BudgetAccess = Awaited<ReturnType<typeof subBudgetAccess>>;

export function reportService(app: FastifyInstance) {
  const read = readModels(app.db);

  async function budgetOf(auth: AuthContext, budgetId: string): Promise<Budget | null> {
    const row = await findBudget(read, budgetId);
    if (!row || !inOrganization(auth, row.organization_id)) return null;
    return {
      id: row.id,
      documentId: row.document_id,
      organizationId: row.organization_id,
      name: row.name,
      type: row.type,
      componentIds: row.sum_budget_component_ids ?? [],
    };
  }

  const resourceOf = (budget: Budget) => ({ organizationId: budget.organizationId, documentId: budget.documentId, budgetId: budget.id });

  /** The sub-budgets the caller reads in a budget (null: all, with the -2 row), and which they may change. */
  async function readable(auth: AuthContext, budget: Budget): Promise<{ ids: string[] | null; access: BudgetAccess }> {
    const access = await subBudgetAccess(app, auth, resourceOf(budget));
    return { ids: access.only ? (await access.only.execute()).map((row) => row.id) : null, access };
  }

  async function updatableTest(budget: Budget, access: BudgetAccess): Promise<(id: string) => boolean> {
    const update = access.update;
    if (update.kind === 'all') return () => true;
    if (update.kind === 'none') return () => false;
    const granted = new Set((await subBudgetIdsGrantedOneByOne(read, update.occupationId, budget.id, 'update').execute()).map((row) => row.id));
    return (id) => granted.has(id);
  }

  /** The budgets whose records a column adds up: a sum budget's readable components, or the budget itself. */
  async function recordBudgets(auth: AuthContext, budget: Budget): Promise<Budget[]> {
    if (budget.type !== 'SUM_BUDGET') return [budget];
    const components = (await Promise.all(budget.componentIds.map((id) => budgetOf(auth, id)))).filter((row): row is Budget => row !== null);
    const readableOnes = await Promise.all(components.map((component) => canAccess(app, auth, resourceOf(component), 'read')));
    return components.filter((_, index) => readableOnes[index]);
  }

  /** `readable` asked once per budget in a request (the base budget's answer serves its column and the listed sub-budgets). */
  function readableOnce(auth: AuthContext) {
    const answers = new Map<string, ReturnType<typeof readable>>();
    return (budget: Budget) => {
      let answer = answers.get(budget.id);
      if (!answer) {
        answer = readable(auth, budget);
        answers.set(budget.id, answer);
      }
      return answer;
    };
  }

  /** Sources by budget and moment, each once. */
  function sourcePlanner(readableOf: ReturnType<typeof readableOnce>) {
    const sources: ReportSource[] = [];
    const indexes = new Map<string, Promise<number>>();
    return {
      sources,
      indexOf(budget: Budget, asOf: string | null): Promise<number> {
        const key = `${budget.id}|${asOf ?? ''}`;
        let index = indexes.get(key);
        if (!index) {
          index = readableOf(budget).then(({ ids }) => sources.push({ budgetIds: [budget.id], asOf, readableSubBudgetIds: ids }) - 1);
          indexes.set(key, index);
        }
        return index;
      },
    };
  }

  async function columnSources(planner: ReturnType<typeof sourcePlanner>, auth: AuthContext, budget: Budget, asOf: string | null): Promise<number[]> {
    const budgets = await recordBudgets(auth, budget);
    // Sequential: sources keep their order, so the SQL is the same for the same request.
    const indexes: number[] = [];
    for (const each of budgets) indexes.push(await planner.indexOf(each, asOf));
    return indexes;
  }

  /** A comparison budget: of the same document (its months and classifiers are the base's), read by the caller. */
  async function comparisonBudget(auth: AuthContext, base: Budget, budgetId: string, index: number): Promise<Budget> {
    const budget = await budgetOf(auth, budgetId);
    if (!budget) throw new DomainError('BUDGET_NOT_FOUND', 'a comparison budget does not exist', { path: `comparisons.${index}.budgetId` });
    if (budget.documentId !== base.documentId) {
      throw new DomainError('SCHEMA_VALIDATION_ERROR', 'a comparison budget of another document', [
        { path: `comparisons.${index}.budgetId`, message: 'validation.invalid' },
      ]);
    }
    await assertResourceAccess(app, auth, resourceOf(budget), 'read');
    return budget;
  }

  /**
   * The comparison budgets, looked up and checked at once (each lookup is a few reads), their
   * readable sub-budgets asked meanwhile; a refusal is the first in request order, as one by one.
   */
  async function comparisonBudgets(auth: AuthContext, base: Budget, request: ReportRequestParsed, readableOf: ReturnType<typeof readableOnce>) {
    const settled = await Promise.allSettled(
      request.comparisons.map(async (comparison, index) => {
        const budget = comparison.copy ? base : await comparisonBudget(auth, base, comparison.budgetId, index);
        void readableOf(budget).catch(() => undefined);
        return budget;
      }),
    );
    return settled;
  }

  async function plannedColumns(
    auth: AuthContext,
    base: Budget,
    request: ReportRequestParsed,
    period: DocumentPeriod,
    readableOf: ReturnType<typeof readableOnce>,
  ) {
    const planner = sourcePlanner(readableOf);
    const comparisons = comparisonBudgets(auth, base, request, readableOf);
    const asOf = request.asOf ?? null;
    const planned: PlannedSumColumn[] = [
      {
        column: sumColumn({ key: BASE_KEY, budgetId: base.id, budgetName: base.name, period: request.basePeriod ?? null, asOf }),
        sources: await columnSources(planner, auth, base, asOf),
        months: periodMonths(period, request.basePeriod, 'basePeriod'),
      },
    ];
    const keys = new Set([BASE_KEY]);
    for (const [index, comparison] of request.comparisons.entries()) {
      if (keys.has(comparison.key)) {
        throw new DomainError('SCHEMA_VALIDATION_ERROR', 'column keys repeat', [{ path: `comparisons.${index}.key`, message: 'validation.unique' }]);
      }
      keys.add(comparison.key);
      const looked = (await comparisons)[index] as PromiseSettledResult<Budget>;
      if (looked.status === 'rejected') throw looked.reason;
      const budget = looked.value;
      const moment = comparison.asOf ?? asOf;
      planned.push({
        column: sumColumn({
          key: comparison.key,
          budgetId: budget.id,
          budgetName: budget.name,
          copy: comparison.copy,
          period: comparison.period ?? null,
          asOf: moment,
        }),
        sources: await columnSources(planner, auth, budget, moment),
        months: periodMonths(period, comparison.period, `comparisons.${index}.period`),
      });
    }
    if (request.componentColumns && base.type === 'SUM_BUDGET') {
      for (const component of await recordBudgets(auth, base)) {
        planned.push({
          column: sumColumn({ key: `component:${component.id}`, budgetId: component.id, budgetName: component.name, period: request.basePeriod ?? null, asOf }),
          sources: [await planner.indexOf(component, asOf)],
          months: periodMonths(period, request.basePeriod, 'basePeriod'),
        });
      }
    }
    return { planned: expandedColumns(planned, period, request.expansion), sources: planner.sources };
  }

  /** The grouping classifier (of the document) and the classifier grouping its items, if any. */
  function groupingOf(request: ReportRequestParsed, classifiers: ReadonlyMap<string, FilterClassifier>): ReportQuery['grouping'] {
    if (!request.groupingClassifierId) return null;
    const classifier = classifiers.get(request.groupingClassifierId);
    if (!classifier) throw new DomainError('CLASSIFIER_NOT_FOUND', 'the grouping classifier is not of the document');
    return { classifierId: classifier.id, parentClassifierId: classifier.parentClassifierId };
  }

  async function documentClassifiers(documentId: string): Promise<Map<string, FilterClassifier>> {
    const rows = await read.selectFrom('classifiers').select(['id', 'grouping_id', 'primary_grouped_by_id']).where('document_id', '=', documentId).execute();
    // The parent level: the primary grouping classifier, or the only classifier grouping this one's items.
    const groupers = (id: string) => rows.filter((row) => row.grouping_id === id).map((row) => row.id);
    const parentOf = (row: (typeof rows)[number]) => row.primary_grouped_by_id ?? (groupers(row.id).length === 1 ? (groupers(row.id)[0] as string) : null);
    return new Map(rows.map((row) => [row.id, { id: row.id, parentClassifierId: parentOf(row) }]));
  }

  /** Waits (bounded) until the report includes a command's position, so a user sees their own change. */
  async function awaitPosition(after: string | null | undefined): Promise<void> {
    const position = after ? parsePosition(after) : null;
    if (position) await app.projections.waitForPosition(REPORT_READ_MODELS, position, AFTER_TIMEOUT_MS);
  }

  /** The budget whose report the caller asks for, after the report's access check (also the live report's). */
  async function readableBudget(auth: AuthContext, budgetId: string): Promise<Budget> {
    const budget = await budgetOf(auth, budgetId);
    if (!budget) throw new DomainError('BUDGET_NOT_FOUND');
    await assertResourceAccess(app, auth, resourceOf(budget), 'read');
    return budget;
  }

  return {
    readableBudget,
    async report(auth: AuthContext, budgetId: string, request: ReportRequestParsed & { after?: string | null }): Promise<ReportResponse> {
      const base = await readableBudget(auth, budgetId);
      const readableOf = readableOnce(auth);
      const [document, scheme, classifiers, baseReadable] = await Promise.all([
        findDocument(read, base.documentId),
        findScheme(read, request.schemeId),
        documentClassifiers(base.documentId),
        readableOf(base),
        awaitPosition(request.after),
      ]);
      if (!document) throw new DomainError('BUDGET_NOT_FOUND');
      if (!scheme || scheme.document_id !== base.documentId) throw new DomainError('SCHEME_NOT_FOUND');
      const period: DocumentPeriod = { year: document.period_year, month: document.period_month, months: document.period_duration * 12 };
      const grouping = groupingOf(request, classifiers);
      const conditions = reportConditions(request.filters, classifiers, document.master_classifier_id);
      const { planned, sources } = await plannedColumns(auth, base, request, period, readableOf);
      const sums = planned.map((column) => column.column);
      const calculated = calculatedColumns(request, sums);
      const aggregates = await withRegexRefusal(() =>
        reportAggregates(read, {
          schemeId: scheme.id,
          schemeClassifierIds: schemeClassifierIds(scheme),
          grouping,
          sources,
          columns: querySumColumns(planned),
          listedSubBudgetIds: baseReadable.ids,
          classifierConditions: conditions.classifiers,
          subBudgetCondition: conditions.subBudget,
        }),
      );
      const { total, rows } = flattenReport(aggregates, {
        grouping,
        sumKeys: sums.map((column) => column.key),
        calculated,
        updatable: await updatableTest(base, baseReadable.access),
      });
      const columns: ReportColumn[] = [...sums, ...calculated];
      return {
        budgetId: base.id,
        schemeId: scheme.id,
        groupingClassifierId: grouping?.classifierId ?? null,
        asOf: request.asOf ?? null,
        period: { start: monthStart(period, 1), duration: period.months },
        columns,
        total,
        rows,
      };
    },
  };
}

/** A filter's regular expression PostgreSQL cannot compile (JavaScript accepted it) is bad input, not a failure. */
async function withRegexRefusal<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if ((error as { code?: string }).code === '2201B') {
      throw new DomainError('SCHEMA_VALIDATION_ERROR', 'a filter regular expression is invalid', [{ path: 'filters', message: 'validation.invalid' }]);
    }
    throw error;
  }
}
