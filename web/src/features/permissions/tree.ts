import type { ResourceRef } from './grants';

/**
 * The resource tree of the permission screens, flattened for the grid (AG Grid Community has no
 * tree data): organisation (depth 0) → document (1) → budget (2) → sub-budget (3). The tree ends
 * at the sub-budget, so no row lies below depth 3, where the spec locks rows.
 */
export type ResourceKind = 'organization' | 'document' | 'budget' | 'subBudget';

export interface TreeRow {
  /** Unique in the tree (a sub-budget appears under every budget). */
  id: string;
  kind: ResourceKind;
  depth: number;
  name: string;
  resource: ResourceRef;
  /** Has children to show (a common budget's sub-budgets, the chosen document's budgets). */
  expandable: boolean;
  expanded: boolean;
  /** Children asked for and not there yet. */
  loading: boolean;
}

export interface NamedItem {
  id: string;
  name: string;
}

export interface BudgetItem extends NamedItem {
  /** Only common budgets hold sub-budgets. */
  holdsSubBudgets: boolean;
}

export interface TreeInput {
  organizationName: string;
  documents: readonly NamedItem[];
  /** The document whose budgets are shown (always open). */
  documentId: string | null;
  budgets: readonly BudgetItem[] | undefined;
  /** Sub-budgets of the chosen scheme per open budget; undefined while loading. */
  subBudgets: ReadonlyMap<string, readonly NamedItem[] | undefined>;
  /** Budgets whose sub-budgets are shown. */
  openBudgetIds: ReadonlySet<string>;
  /** Whether sub-budgets can be shown at all (a scheme is chosen). */
  schemeChosen: boolean;
}

export const rowIdOf = (resource: ResourceRef): string => {
  if (resource.subBudgetId) return `sub-budget:${resource.budgetId}:${resource.subBudgetId}`;
  if (resource.budgetId) return `budget:${resource.budgetId}`;
  if (resource.documentId) return `document:${resource.documentId}`;
  return 'organization';
};

const row = (kind: ResourceKind, depth: number, name: string, resource: ResourceRef, extra: Partial<TreeRow> = {}): TreeRow => ({
  id: rowIdOf(resource),
  kind,
  depth,
  name,
  resource,
  expandable: false,
  expanded: false,
  loading: false,
  ...extra,
});

function budgetRows(documentId: string, budget: BudgetItem, input: TreeInput): TreeRow[] {
  const expandable = budget.holdsSubBudgets && input.schemeChosen;
  const expanded = expandable && input.openBudgetIds.has(budget.id);
  const subBudgets = expanded ? input.subBudgets.get(budget.id) : undefined;
  const head = row(
    'budget',
    2,
    budget.name,
    { documentId, budgetId: budget.id, subBudgetId: null },
    { expandable, expanded, loading: expanded && !subBudgets },
  );
  const children = (subBudgets ?? []).map((subBudget) => row('subBudget', 3, subBudget.name, { documentId, budgetId: budget.id, subBudgetId: subBudget.id }));
  return [head, ...children];
}

/** The rows in display order. */
export function flattenTree(input: TreeInput): TreeRow[] {
  const rows = [row('organization', 0, input.organizationName, { documentId: null, budgetId: null, subBudgetId: null })];
  for (const document of input.documents) {
    const chosen = document.id === input.documentId;
    const resource = { documentId: document.id, budgetId: null, subBudgetId: null };
    rows.push(row('document', 1, document.name, resource, { expandable: chosen, expanded: chosen, loading: chosen && !input.budgets }));
    if (chosen) rows.push(...(input.budgets ?? []).flatMap((budget) => budgetRows(document.id, budget, input)));
  }
  return rows;
}

/** Keeps the rows whose own text matches, with every ancestor of a match (a tree keeps its path). */
export function filterTree(rows: readonly TreeRow[], matches: (row: TreeRow) => boolean): TreeRow[] {
  const keep = new Set<number>();
  const path: number[] = [];
  rows.forEach((candidate, index) => {
    path.length = candidate.depth;
    path[candidate.depth] = index;
    if (matches(candidate)) for (const ancestor of path) keep.add(ancestor);
  });
  return rows.filter((_, index) => keep.has(index));
}
