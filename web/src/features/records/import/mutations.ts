import { useMutation } from '@tanstack/react-query';
import { readTable } from '../../../components/spreadsheet';
import { useToasts } from '../../../components/Toasts';
import { fetchBudgetRecords, type ImportStarted, type ImportTarget, startImport } from './api';
import { type ImportColumnsContext, recordsToImportRows, type SourceRow, tableToImportRows } from './rows';

/** The rows of the chosen source and its name (the import's originResourceName). */
export interface LoadedSource {
  name: string;
  rows: SourceRow[];
  ignoredHeaders: string[];
}

/** Reads an .xlsx or .csv file in the browser into import rows. */
export function useReadFile(context: ImportColumnsContext | null, onLoaded: (source: LoadedSource) => void) {
  return useMutation({
    mutationFn: async (file: File): Promise<LoadedSource> => {
      if (!context) throw new Error('the document is not loaded');
      return { name: file.name, ...tableToImportRows(await readTable(file), context) };
    },
    onSuccess: onLoaded,
  });
}

/** Takes another budget's records as import rows. */
export function useLoadBudget(onLoaded: (source: LoadedSource) => void) {
  return useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string }): Promise<LoadedSource> => ({
      name,
      rows: recordsToImportRows(await fetchBudgetRecords(id)),
      ignoredHeaders: [],
    }),
    onSuccess: onLoaded,
  });
}

/** Sends the rows; a refused start is the 'dashboard.subBudgets.import.importError' toast with the server's reason. */
export function useStartImport(target: ImportTarget, onStarted: (started: ImportStarted) => void) {
  const { showFailure } = useToasts();
  return useMutation({
    mutationFn: ({ list, importId, originResourceName }: { list: Parameters<typeof startImport>[1]; importId: string; originResourceName: string }) =>
      startImport(target, list, importId, originResourceName),
    onSuccess: onStarted,
    onError: (error) => showFailure('dashboard.subBudgets.import.importError', error),
  });
}
