import type { UseQueryResult } from '@tanstack/react-query';
import type { GetRowIdParams } from 'ag-grid-community';
import { useCallback } from 'react';
import { FormattedMessage } from 'react-intl';
import { ErrorAlert } from '../components/ErrorAlert';
import type { MessageKey } from '../i18n/messages';
import { DataGrid, type DataGridProps } from './DataGrid';

export type QueryGridProps<T extends { id: string }> = Omit<DataGridProps<T>, 'rowData' | 'loading' | 'getRowId'> & {
  /** The query that loads the rows: the grid shows its loading overlay while it is pending. */
  query: Pick<UseQueryResult<unknown>, 'isPending' | 'isError' | 'error'>;
  /** The rows to show (the query's data, possibly filtered). */
  rows: T[];
  /** The title of the alert above the grid when the query failed. */
  loadFailed: MessageKey;
};

/** A list grid of rows with an `id`, loaded by a query: the load failure is shown above it. */
export function QueryGrid<T extends { id: string }>({ query, rows, loadFailed, ...props }: QueryGridProps<T>) {
  const rowId = useCallback(({ data }: GetRowIdParams<T>) => data.id, []);
  return (
    <>
      {query.isError ? <ErrorAlert error={query.error} title={<FormattedMessage id={loadFailed} />} /> : null}
      <DataGrid<T> rowData={query.isPending ? null : rows} loading={query.isPending} getRowId={rowId} {...props} />
    </>
  );
}
