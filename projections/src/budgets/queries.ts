import { type Selectable, sql } from 'kysely';
import type { ReadDatabase } from '../read-models';
import type { BudgetsTable } from './tables';

/** A row of the budgets read model, as queries return it (the one definition: tables.ts). */
export type BudgetRow = Selectable<BudgetsTable>;

export function findBudget(read: ReadDatabase, budgetId: string): Promise<BudgetRow | undefined> {
  return read.selectFrom('budgets').selectAll().where('id', '=', budgetId).executeTakeFirst();
}

/** The document's budgets in order: highest order first, then oldest. */
export function documentBudgets(read: ReadDatabase, documentId: string): Promise<BudgetRow[]> {
  return read
    .selectFrom('budgets')
    .selectAll()
    .where('document_id', '=', documentId)
    .orderBy('sort_order', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The organisation's budgets, document by document, each document's in its order. */
export function organizationBudgets(read: ReadDatabase, organizationId: string): Promise<BudgetRow[]> {
  return read
    .selectFrom('budgets')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('document_id')
    .orderBy('sort_order', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Sum budgets that add up the budget. */
export async function sumBudgetsUsing(read: ReadDatabase, budgetId: string): Promise<string[]> {
  const rows = await read.selectFrom('budgets').select('id').where(sql<boolean>`${budgetId}::uuid = any(sum_budget_component_ids)`).execute();
  return rows.map((row) => row.id);
}

/** Whether the live document has a master classifier (false also when there is no such document). */
export async function documentHasMasterClassifier(read: ReadDatabase, documentId: string): Promise<boolean> {
  const row = await read.selectFrom('documents').select('master_classifier_id').where('id', '=', documentId).executeTakeFirst();
  return Boolean(row?.master_classifier_id);
}

/** What a budget holds of the schemes (spec 2, section 3): its pinned sub-budgets, and for a common budget the document's schemes. */
export interface BudgetStructure {
  pinnedSubBudgetIds: string[];
  schemaIds: string[];
}

/** The structure of each budget of a list, keyed by budget id (read from the schemes read model). */
export async function budgetStructures(read: ReadDatabase, rows: readonly BudgetRow[]): Promise<Map<string, BudgetStructure>> {
  const structures = new Map<string, BudgetStructure>(rows.map((row) => [row.id, { pinnedSubBudgetIds: [], schemaIds: [] }]));
  if (rows.length === 0) return structures;
  const commonDocuments = [...new Set(rows.filter((row) => row.type === 'COMMON').map((row) => row.document_id))];
  const [pins, schemes] = await Promise.all([
    read
      .selectFrom('sub_budget_pins')
      .select(['budget_id', 'sub_budget_id'])
      .where('budget_id', 'in', [...structures.keys()])
      .orderBy('sub_budget_id')
      .execute(),
    commonDocuments.length > 0
      ? read.selectFrom('schemes').select(['id', 'document_id']).where('document_id', 'in', commonDocuments).orderBy('display_order').orderBy('name').execute()
      : Promise.resolve([]),
  ]);
  for (const pin of pins) structures.get(pin.budget_id)?.pinnedSubBudgetIds.push(pin.sub_budget_id);
  for (const row of rows) {
    if (row.type === 'COMMON')
      (structures.get(row.id) as BudgetStructure).schemaIds = schemes.filter((scheme) => scheme.document_id === row.document_id).map((scheme) => scheme.id);
  }
  return structures;
}

/** A row of the platform administration's budget list: the budget with its document's name. */
export type AdminBudgetRow = Pick<BudgetRow, 'id' | 'name' | 'type' | 'document_id' | 'organization_id' | 'sync_enabled' | 'last_execution_time'> & {
  document_name: string | null;
};

export interface AdminBudgetFilter {
  type?: BudgetRow['type'];
  /** Only these budgets; undefined: all of them. */
  budgetIds?: readonly string[];
}

/** Every organisation's budgets for the platform administration (organisation, document, order). */
export async function adminBudgets(read: ReadDatabase, filter: AdminBudgetFilter = {}): Promise<AdminBudgetRow[]> {
  if (filter.budgetIds?.length === 0) return [];
  let query = read
    .selectFrom('budgets')
    .leftJoin('documents', 'documents.id', 'budgets.document_id')
    .select([
      'budgets.id',
      'budgets.name',
      'budgets.type',
      'budgets.document_id',
      'budgets.organization_id',
      'budgets.sync_enabled',
      'budgets.last_execution_time',
      'documents.name as document_name',
    ])
    .orderBy('budgets.organization_id')
    .orderBy('budgets.document_id')
    .orderBy('budgets.sort_order', 'desc')
    .orderBy('budgets.id');
  if (filter.type) query = query.where('budgets.type', '=', filter.type);
  if (filter.budgetIds) query = query.where('budgets.id', 'in', [...filter.budgetIds]);
  return query.execute();
}
