import { type BudgetRow, findBudget } from '@eelarve/projections/budgets/queries';
import { findDocument } from '@eelarve/projections/documents/queries';
import { findOrganization } from '@eelarve/projections/organizations/queries';
import type { ReadDatabase } from '@eelarve/projections/read-models';
import { findScheme, findSubBudget } from '@eelarve/projections/schemes/queries';
import { DomainError, type ImportClassifier, type ImportValidationContext, MONTHS_PER_YEAR } from '@eelarve/shared';

/**
 * The facts import rows are checked against (shared/src/records/import-validation.ts), read at
 * the moment of checking: the web's preview, the gateway's preview and the job each read them
 * anew, so a classifier changed in between counts.
 */
export interface ImportTarget {
  budget: BudgetRow;
  subBudgetId: string | null;
}

export interface ImportFacts {
  context: ImportValidationContext;
  /** Classifier id → field name, for the error report's row data. */
  fieldNames: Map<string, string>;
}

/** Only common and monitoring budgets hold records of their own; a sum budget adds up others. */
export function assertImportableBudget(budget: Pick<BudgetRow, 'type'>): void {
  if (budget.type === 'SUM_BUDGET') throw new DomainError('IMPORT_BUDGET_TYPE_INVALID', 'a sum budget holds no records of its own');
}

async function documentClassifiers(read: ReadDatabase, documentId: string, masterId: string | null): Promise<ImportClassifier[]> {
  const [classifiers, items] = await Promise.all([
    read.selectFrom('classifiers').selectAll().where('document_id', '=', documentId).orderBy('display_order').execute(),
    read.selectFrom('classifier_items').select(['classifier_id', 'code', 'name', 'unselectable']).where('document_id', '=', documentId).execute(),
  ]);
  const itemsOf = new Map<string, ImportClassifier['items'][number][]>();
  for (const item of items) {
    const list = itemsOf.get(item.classifier_id) ?? [];
    list.push({ code: item.code, name: item.name, selectable: !item.unselectable });
    itemsOf.set(item.classifier_id, list);
  }
  return classifiers.map((row) => ({
    id: row.id,
    fieldName: row.field_name,
    required: row.required,
    master: row.id === masterId,
    code: { typeRegex: row.type_regex, regexFlag: row.regex_flag, minLength: row.min_length, maxLength: row.max_length },
    items: itemsOf.get(row.id) ?? [],
  }));
}

/** The sub-budget's scheme classifiers and values; it must be of the budget's document. */
async function subBudgetFacts(read: ReadDatabase, budget: BudgetRow, subBudgetId: string): Promise<ImportValidationContext['subBudget']> {
  const subBudget = await findSubBudget(read, subBudgetId);
  if (!subBudget || subBudget.document_id !== budget.document_id) throw new DomainError('SUB_BUDGET_NOT_FOUND');
  const scheme = await findScheme(read, subBudget.scheme_id);
  if (!scheme) throw new DomainError('SUB_BUDGET_NOT_FOUND');
  return { schemeClassifierIds: scheme.classifier_list.map((entry) => entry.classifierId), classifiers: subBudget.classifiers };
}

/** Everything the rules need for an import into the budget (or one of its sub-budgets). */
export async function importFacts(read: ReadDatabase, target: ImportTarget): Promise<ImportFacts> {
  const { budget } = target;
  const [document, organization] = await Promise.all([findDocument(read, budget.document_id), findOrganization(read, budget.organization_id)]);
  if (!document) throw new DomainError('BUDGET_NOT_FOUND', "the budget's document is gone");
  const classifiers = await documentClassifiers(read, document.id, document.master_classifier_id);
  const subBudget = target.subBudgetId ? await subBudgetFacts(read, budget, target.subBudgetId) : null;
  const separator = organization?.locale_settings?.decimalSeparator === 'dot' ? '.' : ',';
  return {
    context: {
      classifiers,
      monthCount: document.period_duration * MONTHS_PER_YEAR,
      periodStart: { year: document.period_year, month: document.period_month },
      subBudget,
      decimalSeparator: separator,
    },
    fieldNames: new Map(classifiers.map((classifier) => [classifier.id, classifier.fieldName])),
  };
}

/** The budget of a running import, as it is now; gone or turned into a sum budget: the import is refused. */
export async function currentBudget(read: ReadDatabase, budgetId: string): Promise<BudgetRow> {
  const budget = await findBudget(read, budgetId);
  if (!budget) throw new DomainError('BUDGET_NOT_FOUND');
  assertImportableBudget(budget);
  return budget;
}
