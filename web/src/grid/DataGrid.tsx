import type { GridOptions } from 'ag-grid-community';
import { AgGridReact, type AgGridReactProps } from 'ag-grid-react';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { AG_GRID_TEXT_KEYS, agGridMessageId } from './messages';
import { gridTheme } from './setup';

export type DataGridProps<TData> = AgGridReactProps<TData> & { testId?: string; height?: number | string };

/** Every table of the product: the shared theme, translated grid texts and sensible defaults. */
export function DataGrid<TData>({ testId, height = '70vh', defaultColDef, ...props }: DataGridProps<TData>) {
  const intl = useIntl();
  const localeText = useMemo<GridOptions['localeText']>(
    () => ({
      ...Object.fromEntries(AG_GRID_TEXT_KEYS.map((key) => [key, intl.formatMessage({ id: agGridMessageId(key) })])),
      noRowsToShow: intl.formatMessage({ id: 'grid.noRows' }),
      loadingOoo: intl.formatMessage({ id: 'grid.loading' }),
    }),
    [intl],
  );
  const columnDefaults = useMemo(() => ({ sortable: true, resizable: true, suppressMovable: true, ...defaultColDef }), [defaultColDef]);

  return (
    <div className="data-grid" style={{ height }} data-testid={testId}>
      <AgGridReact<TData>
        key={intl.locale}
        theme={gridTheme}
        localeText={localeText}
        defaultColDef={columnDefaults}
        suppressCellFocus={false}
        animateRows={false}
        {...props}
      />
    </div>
  );
}
