import type { ClassifierCatalogue } from '@eelarve/domain';
import { DomainError, type Scheme, type SubBudget } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { readModels } from '../../infrastructure/database';
import type { AuthContext } from '../../types';
import { type AccessOptions, assertResourceAccess, type ResourceAction, type ResourceRef } from '../permissions/authorize';

/** The schemes tab and the sub-budgets tab read the schemes projector. */
export const SCHEME_READ_MODELS = ['schemes'] as const;

/** Read side of schemes and sub-budgets (read.schemes, read.sub_budgets, read.sub_budget_pins). */

export interface SchemeRow {
  id: string;
  document_id: string;
  organization_id: string;
  name: string;
  field_name: string;
  description: string;
  display_order: number;
  classifier_list: Scheme['classifierList'];
  sub_budgets_count?: number | string;
}

const toScheme = (row: SchemeRow): Scheme => ({
  id: row.id,
  documentId: row.document_id,
  organizationId: row.organization_id,
  name: row.name,
  fieldName: row.field_name,
  description: row.description,
  displayOrder: row.display_order,
  classifierList: row.classifier_list,
  subBudgetsCount: Number(row.sub_budgets_count ?? 0),
});

function schemesQuery(app: FastifyInstance) {
  return readModels(app.db)
    .selectFrom('schemes')
    .selectAll('schemes')
    .select((eb) => eb.selectFrom('sub_budgets').select(eb.fn.countAll().as('count')).whereRef('sub_budgets.scheme_id', '=', 'schemes.id').as('sub_budgets_count'))
    .orderBy('schemes.display_order')
    .orderBy('schemes.name');
}

export async function listDocumentSchemes(app: FastifyInstance, documentId: string): Promise<Scheme[]> {
  const rows = await schemesQuery(app).where('schemes.document_id', '=', documentId).execute();
  return rows.map((row) => toScheme(row as unknown as SchemeRow));
}

export async function listOrganizationSchemes(app: FastifyInstance, organizationId: string): Promise<Scheme[]> {
  const rows = await schemesQuery(app).where('schemes.organization_id', '=', organizationId).execute();
  return rows.map((row) => toScheme(row as unknown as SchemeRow));
}

/**
 * The scheme in the path, after checking the caller may perform `action` on its document:
 * an unknown scheme and one of another organisation both answer 404 SCHEME_NOT_FOUND.
 */
export async function schemeInPath(app: FastifyInstance, auth: AuthContext, schemeId: string, action: ResourceAction, options: AccessOptions = {}) {
  const scheme = await readModels(app.db).selectFrom('schemes').selectAll().where('id', '=', schemeId).executeTakeFirst();
  if (!scheme) throw new DomainError('SCHEME_NOT_FOUND');
  const resource: ResourceRef = { organizationId: scheme.organization_id, documentId: scheme.document_id };
  await assertResourceAccess(app, auth, resource, action, options).catch((error) => {
    throw error instanceof DomainError && error.code === 'OBJECT_NOT_FOUND' ? new DomainError('SCHEME_NOT_FOUND') : error;
  });
  return scheme;
}

/** A COMMON budget in the path (only those hold sub-budgets), after the access check. */
export async function budgetInPath(app: FastifyInstance, auth: AuthContext, budgetId: string, action: ResourceAction, options: AccessOptions = {}) {
  const budget = await readModels(app.db).selectFrom('budgets').select(['id', 'document_id', 'organization_id', 'type']).where('id', '=', budgetId).executeTakeFirst();
  if (!budget) throw new DomainError('OBJECT_NOT_FOUND', 'budget not found');
  await assertResourceAccess(app, auth, { organizationId: budget.organization_id, documentId: budget.document_id, budgetId }, action, options);
  if (budget.type !== 'COMMON') throw new DomainError('OBJECT_NOT_FOUND', 'only common budgets hold sub-budgets');
  return budget;
}

export async function findSubBudget(app: FastifyInstance, subBudgetId: string) {
  return readModels(app.db).selectFrom('sub_budgets').selectAll().where('id', '=', subBudgetId).executeTakeFirst();
}

/** Sub-budgets of a scheme (by name); with a budget, `pinned` and `budgetId` are that budget's. */
export async function listSubBudgets(app: FastifyInstance, schemeId: string, budgetId: string | null = null): Promise<SubBudget[]> {
  const [rows, pins, withRecords] = await Promise.all([
    readModels(app.db).selectFrom('sub_budgets').selectAll().where('scheme_id', '=', schemeId).orderBy('name').orderBy('id').execute(),
    budgetId
      ? readModels(app.db).selectFrom('sub_budget_pins').select('sub_budget_id').where('budget_id', '=', budgetId).where('scheme_id', '=', schemeId).execute()
      : Promise.resolve([]),
    Promise.resolve(new Map<string, number>()),
  ]);
  const pinned = new Set(pins.map((pin) => pin.sub_budget_id));
  return rows.map((row) => {
    const recordsCount = withRecords.get(row.id) ?? 0;
    return {
      id: row.id,
      name: row.name,
      schemaId: row.scheme_id,
      documentId: row.document_id,
      budgetId,
      classifiers: row.classifiers as unknown as Record<string, string>,
      pinned: pinned.has(row.id),
      hasRecords: recordsCount > 0,
      recordsCount,
      attachmentsCount: 0,
      hasComments: false,
    };
  });
}

export async function subBudgetCounts(app: FastifyInstance, schemeId: string) {
  const [total, pins] = await Promise.all([
    readModels(app.db).selectFrom('sub_budgets').select((eb) => eb.fn.countAll().as('count')).where('scheme_id', '=', schemeId).executeTakeFirstOrThrow(),
    readModels(app.db)
      .selectFrom('sub_budget_pins')
      .select(['budget_id', (eb) => eb.fn.countAll().as('count')])
      .where('scheme_id', '=', schemeId)
      .groupBy('budget_id')
      .execute(),
  ]);
  return { total: Number(total.count), pinnedByBudget: Object.fromEntries(pins.map((pin) => [pin.budget_id, Number(pin.count)])) };
}

export async function schemePreselections(app: FastifyInstance, schemeId: string) {
  const rows = await readModels(app.db).selectFrom('sub_budgets').select(['id', 'preselections']).where('scheme_id', '=', schemeId).orderBy('name').execute();
  return rows.map((row) => ({ subBudgetId: row.id, preselections: row.preselections as unknown as Record<string, string[]> }));
}

/**
 * Records are another feature: until they exist no sub-budget has any. Every rule that depends on
 * records (deleting, changing values, unpinning) already asks here.
 */
export async function subBudgetsWithRecords(_app: FastifyInstance, _subBudgetIds: readonly string[]): Promise<string[]> {
  return [];
}

/**
 * The document's classifiers and its master classifier, with the items whose code is one of
 * `codes` (the only ones a command can refer to; a classifier may have tens of thousands).
 */
export async function classifierCatalogue(app: FastifyInstance, documentId: string, codes: Iterable<string>): Promise<ClassifierCatalogue> {
  const wanted = [...new Set([...codes].map((code) => code.trim()).filter((code) => code !== ''))];
  const document = await readModels(app.db).selectFrom('documents').select('master_classifier_id').where('id', '=', documentId).executeTakeFirst();
  const classifiers = await readModels(app.db).selectFrom('classifiers').select(['id', 'field_name']).where('document_id', '=', documentId).execute();
  const items =
    wanted.length === 0
      ? []
      : await readModels(app.db)
          .selectFrom('classifier_items')
          .select(['classifier_id', 'code', 'unselectable'])
          .where('document_id', '=', documentId)
          .where(sql<boolean>`code = any(${wanted}::text[])`)
          .execute();
  const catalogue: ClassifierCatalogue = { masterClassifierId: document?.master_classifier_id ?? null, classifiers: {} };
  for (const row of classifiers) catalogue.classifiers[row.id] = { fieldName: row.field_name, items: {} };
  for (const row of items) {
    const classifier = catalogue.classifiers[row.classifier_id];
    if (classifier) classifier.items[row.code] = { selectable: !row.unselectable };
  }
  return catalogue;
}

export async function documentClassifierIds(app: FastifyInstance, documentId: string): Promise<string[]> {
  const rows = await readModels(app.db).selectFrom('classifiers').select('id').where('document_id', '=', documentId).execute();
  return rows.map((row) => row.id);
}
