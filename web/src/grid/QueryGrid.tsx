import type { UseQueryResult } from '@tanstack/react-query';
import type { GetRowIdParams } from 'ag-grid-community';
import { useCallback } from 'react';
import { FormattedMessage } from 'react-intl';
import type { MessageKey } from '../i18n/messages';
import { DataGrid, type DataGridProps } from './DataGrid';
import { ListError } from './ListError';

export type QueryGridProps<T extends { id: string }> = Omit<DataGridProps<T>, 'rowData' | 'loading' | 'getRowId'> & {
  /** The query that loads the rows: the grid shows its loading overlay while it is pending. */
  query: Pick<UseQueryResult<unknown>, 'isPending' | 'isError' | 'error' | 'data' | 'refetch'>;
  /** The rows to show (the query's data, possibly filtered). */
  rows: T[];
  /** The title of the list error when the query failed. */
  loadFailed: MessageKey;
  /** The list error's test id. */
  errorTestId?: string;
};

/**
 * A list grid of rows with an `id`, loaded by a query. A failed load shows the list error with a
 * retry in place of the grid; rows loaded before a failed refresh stay below it.
 */
export function QueryGrid<T extends { id: string }>({ query, rows, loadFailed, errorTestId, ...props }: QueryGridProps<T>) {
  const rowId = useCallback(({ data }: GetRowIdParams<T>) => data.id, []);
  const { isError, error, refetch } = query;
  const retry = useCallback(() => void refetch(), [refetch]);
  const failedEmpty = isError && query.data === undefined;
  return (
    <>
      {isError ? <ListError error={error} title={<FormattedMessage id={loadFailed} />} onRetry={retry} testId={errorTestId} /> : null}
      {failedEmpty ? null : <DataGrid<T> rowData={query.isPending ? null : rows} loading={query.isPending} getRowId={rowId} {...props} />}
    </>
  );
}
