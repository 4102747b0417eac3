import type { StatusPermissions } from '../../../components/status-lock/status-lock';
import { ExportRecordsButton } from '../export/ExportRecordsButton';
import { ImportMenu } from './ImportMenu';

/** What the sub-budgets page gives its records actions (the app composes the two features). */
export interface BudgetRecordActionsProps {
  documentId: string;
  budget: { id: string; name: string; permissions: Omit<StatusPermissions, 'restrictions'> & Partial<Pick<StatusPermissions, 'restrictions'>> } | undefined;
  scheme: { id: string; name: string } | undefined;
  /** The scheme's sub-budgets shown (each gets a sheet of the export); undefined while loading. */
  subBudgets: ReadonlyArray<{ id: string; name: string }> | undefined;
}

/**
 * The sub-budgets page's record actions (spec 3, section 2): export the scheme's records (a sheet
 * per sub-budget) and import records into the budget from a file or another budget.
 */
export function BudgetRecordActions({ documentId, budget, scheme, subBudgets }: BudgetRecordActionsProps) {
  if (!budget) return null;
  const permissions: StatusPermissions = { ...budget.permissions, restrictions: budget.permissions.restrictions ?? [] };
  const source =
    scheme && subBudgets ? { kind: 'scheme' as const, budgetId: budget.id, schemeId: scheme.id, name: `${budget.name} - ${scheme.name}`, subBudgets } : null;
  return (
    <>
      <ExportRecordsButton documentId={documentId} budgetPermissions={permissions} source={source} />
      <ImportMenu documentId={documentId} budget={{ id: budget.id, name: budget.name, permissions }} />
    </>
  );
}
