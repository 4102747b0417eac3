import type { Classifier, Scheme, SubBudget } from '@eelarve/shared';
import { useMutation } from '@tanstack/react-query';
import type { GridApi } from 'ag-grid-community';
import type { RefObject } from 'react';
import { useToasts } from '../../../components/Toasts';
import { fetchSchemePreselections } from '../api/requests';
import { classifierValue, exportHeaders, exportRows, type SchemeColumn } from '../model';
import type { SubBudgetRow } from '../sub-budget-edit';
import { downloadXlsx } from '../xlsx';

/** Exports the shown saved sub-budgets (not an unsaved new one) with their preselections as an .xlsx built in the browser. */
export function useSubBudgetExport(
  scheme: Scheme | null,
  columns: readonly SchemeColumn[],
  classifiers: readonly Classifier[],
  gridApi: RefObject<GridApi<SubBudgetRow> | null>,
) {
  const { showError } = useToasts();
  return useMutation({
    mutationFn: async () => {
      if (!scheme) return;
      const presets = await fetchSchemePreselections(scheme.id);
      const byId = new Map(presets.map((entry) => [entry.subBudgetId, entry.preselections]));
      const shown: SubBudget[] = [];
      gridApi.current?.forEachNodeAfterFilterAndSort((node) => node.data?.subBudget && shown.push(node.data.subBudget));
      const preselectionColumns = preselectionColumnsOf(classifiers, presets);
      await downloadXlsx(
        `${scheme.fieldName || 'sub-budgets'}.xlsx`,
        scheme.name,
        exportHeaders([...columns], preselectionColumns),
        exportRows(shown, [...columns], preselectionColumns, byId),
      );
    },
    onError: showError,
  });
}

/** Classifiers that have preselections anywhere in the scheme (the export's extra columns). */
function preselectionColumnsOf(classifiers: readonly Classifier[], presets: ReadonlyArray<{ preselections: Record<string, string[]> }>): SchemeColumn[] {
  const used = new Set(
    presets.flatMap((entry) =>
      Object.entries(entry.preselections)
        .filter(([, codes]) => codes.length > 0)
        .map(([id]) => id),
    ),
  );
  return classifiers
    .filter((classifier) => used.has(classifier.id))
    .map((classifier) => ({ classifierId: classifier.id, type: 'SECONDARY' as const, fieldName: classifier.fieldName, name: classifier.name }));
}

/** Exports a common budget's shown sub-budgets of one scheme with their pins as an .xlsx built in the browser. */
export function useBudgetSubBudgetExport(
  budgetName: string | undefined,
  scheme: Scheme | undefined,
  columns: readonly SchemeColumn[],
  gridApi: RefObject<GridApi<SubBudget> | null>,
) {
  const { showError } = useToasts();
  return useMutation({
    mutationFn: async () => {
      const shown: SubBudget[] = [];
      gridApi.current?.forEachNodeAfterFilterAndSort((node) => node.data && shown.push(node.data));
      const header = ['id', 'name', ...columns.map((column) => column.fieldName), 'pinned'];
      const rows = shown.map((row) => [row.id, row.name, ...columns.map((column) => classifierValue(row, column)), row.pinned ? '1' : '0']);
      await downloadXlsx(`${budgetName ?? 'budget'} - ${scheme?.name ?? ''}.xlsx`, scheme?.name ?? 'sub-budgets', header, rows);
    },
    onError: showError,
  });
}
