import type { Document } from '@eelarve/shared';
import type { BudgetView } from './api/queries';

/** A row of the tree as shown: a document (expandable) or one of its budgets (selectable). */
export interface SourceTreeItem {
  key: string;
  kind: 'document' | 'budget';
  documentId: string;
  budgetId: string | null;
}

export interface SourceTreeGroup {
  document: Pick<Document, 'id' | 'name'>;
  budgets: BudgetView[];
}

/**
 * The documents that hold candidate budgets, in the documents' order, each with its candidates;
 * with a search, only budgets whose name contains it (and the documents holding them).
 */
export function sourceTreeGroups(documents: readonly Pick<Document, 'id' | 'name'>[], budgets: readonly BudgetView[], search: string): SourceTreeGroup[] {
  const query = search.trim().toLocaleLowerCase();
  return documents
    .map((document) => ({
      document,
      budgets: budgets.filter((budget) => budget.documentId === document.id && (query === '' || budget.name.toLocaleLowerCase().includes(query))),
    }))
    .filter((group) => group.budgets.length > 0);
}

/** The rows a keyboard moves through: every shown document and the budgets of the expanded ones. */
export function visibleTreeItems(groups: readonly SourceTreeGroup[], isExpanded: (documentId: string) => boolean): SourceTreeItem[] {
  return groups.flatMap((group) => [
    { key: `d:${group.document.id}`, kind: 'document' as const, documentId: group.document.id, budgetId: null },
    ...(isExpanded(group.document.id)
      ? group.budgets.map((budget) => ({ key: `b:${budget.id}`, kind: 'budget' as const, documentId: group.document.id, budgetId: budget.id }))
      : []),
  ]);
}
