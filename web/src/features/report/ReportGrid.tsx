import { REPORT_BASE_COLUMN_KEY, type ReportColumn, type ReportRowByKey, roundAmount } from '@eelarve/shared';
import type { ColDef, GridApi, ICellRendererParams, IHeaderParams, RowClassRules } from 'ag-grid-community';
import { createContext, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { type DropdownItem, DropdownMenu } from '../../components/DropdownMenu';
import { MoreIcon } from '../../components/icons';
import { DataGrid } from '../../grid/DataGrid';
import { type AmountFormat, formatFixedAmount } from '../../i18n/format';

/**
 * The report table (spec 3, section 2): the tree as flattened rows with expand and collapse, the
 * server's sums per column, the total pinned last, the first column at least 30% of the width and
 * the sum columns 220 wide (spec 3, section 9), a menu on each column. Long titles wrap (up to three
 * lines) with the whole title as the header's tooltip; a short report is as tall as its rows, so
 * its total stands right under them, and a long one keeps the total pinned at the grid's foot.
 */

/** Spec 3, section 9: report sum columns are 220 wide; the first column takes at least 30%. */
export const SUM_COLUMN_WIDTH = 220;
const FIRST_COLUMN_SHARE = 0.3;
const INDENT_PX = 18;
/** Up to this many rows the grid grows with them instead of scrolling. */
const SHORT_REPORT_ROWS = 20;

export interface GridColumn {
  column: ReportColumn;
  title: string;
  menu: DropdownItem[];
}

interface RowContext {
  expanded: ReadonlySet<string>;
  /** Rows a highlighting chip picks out: marked in words too, not by colour alone. */
  matched: ReadonlySet<string>;
  onToggle: (key: string) => void;
  rowText: (row: ReportRowByKey) => string;
}

function NameCell({ data, context, node }: ICellRendererParams<ReportRowByKey, unknown, RowContext>) {
  const intl = useIntl();
  if (!data) return null;
  const text = context.rowText(data);
  const open = context.expanded.has(data.key);
  const pinned = node.rowPinned === 'bottom';
  return (
    <span className="report-name" style={{ paddingLeft: data.depth * INDENT_PX }} data-row-type={data.type}>
      {data.hasChildren && !pinned ? (
        <button
          type="button"
          className="report-toggle"
          aria-expanded={open}
          aria-label={intl.formatMessage({ id: open ? 'report.collapse' : 'report.expand' }, { name: text })}
          data-testid="report-toggle"
          onClick={() => context.onToggle(data.key)}
        >
          {open ? '▾' : '▸'}
        </button>
      ) : (
        <span className="report-toggle-space" aria-hidden="true" />
      )}
      <span className="report-name-text" data-testid={pinned ? 'report-total-name' : 'report-row-name'}>
        {text}
      </span>
      {!pinned && context.matched.has(data.key) ? <span className="visually-hidden">{intl.formatMessage({ id: 'report.row.matched' })}</span> : null}
    </span>
  );
}

/**
 * The columns' menus, by column key. A React context rather than the header's params: the grid keeps
 * a header mounted while its column stays, and a menu changes with the columns around it.
 */
const ColumnMenus = createContext<ReadonlyMap<string, DropdownItem[]>>(new Map());

function ColumnHeader({ displayName, testKey }: IHeaderParams & { testKey: string }) {
  const intl = useIntl();
  const menu = useContext(ColumnMenus).get(testKey) ?? [];
  return (
    <span className="report-column-header" data-testid="report-column-header" data-column-key={testKey}>
      <span className="report-column-title" title={displayName}>
        {displayName}
      </span>
      {menu.length > 0 ? (
        <DropdownMenu label={intl.formatMessage({ id: 'report.columnMenu' }, { name: displayName })} items={menu} testId={`report-column-menu-${testKey}`}>
          <MoreIcon />
        </DropdownMenu>
      ) : null}
    </span>
  );
}

/** A sum as the organisation shows amounts; a percentage with its sign. */
function formatSum(value: string | null | undefined, percent: boolean, format: AmountFormat): string {
  if (value === null || value === undefined) return '';
  const text = formatFixedAmount(roundAmount(value, format.decimalPlaces), format.decimalSeparator);
  return percent ? `${text} %` : text;
}

/** The width the first column needs: 30% of the table. */
function useFirstColumnWidth(): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(300);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.round((entry?.contentRect.width ?? 1000) * FIRST_COLUMN_SHARE)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

export function ReportGrid({
  rows,
  total,
  columns,
  expanded,
  onToggle,
  rowText,
  highlighted,
  matched,
  amountFormat,
}: {
  rows: ReportRowByKey[];
  total: ReportRowByKey | undefined;
  columns: GridColumn[];
  expanded: ReadonlySet<string>;
  onToggle: (key: string) => void;
  rowText: (row: ReportRowByKey) => string;
  highlighted: ReadonlySet<string>;
  /** Rows a highlighting filter chip picks out. */
  matched: ReadonlySet<string>;
  amountFormat: AmountFormat;
}) {
  const intl = useIntl();
  const [containerRef, firstWidth] = useFirstColumnWidth();
  const gridApi = useRef<GridApi<ReportRowByKey> | null>(null);

  // The definitions change only with what they show: new ones each render would make the grid
  // redraw its header (closing an open column menu) and cells.
  const shape = columns.map(({ column, title }) => [column.key, title, column.operation, column.parentKey].join('\u0000')).join('\u0001');
  const latestColumns = useRef(columns);
  latestColumns.current = columns;
  const { decimalPlaces, decimalSeparator } = amountFormat;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `shape` stands for the columns read from the ref.
  const columnDefs = useMemo<ColDef<ReportRowByKey>[]>(
    () => [
      {
        colId: 'name',
        headerName: intl.formatMessage({ id: 'report.column.name' }),
        cellRenderer: NameCell,
        flex: 1,
        minWidth: firstWidth,
        sortable: false,
      },
      ...latestColumns.current.map<ColDef<ReportRowByKey>>(({ column, title }) => {
        const percent = column.operation === 'percent';
        return {
          colId: column.key,
          headerName: title,
          headerTooltip: title,
          wrapHeaderText: true,
          autoHeaderHeight: true,
          headerComponent: ColumnHeader,
          headerComponentParams: { testKey: column.key },
          width: SUM_COLUMN_WIDTH,
          sortable: false,
          type: 'rightAligned',
          cellClass: column.parentKey ? 'report-sum report-sub-sum' : 'report-sum',
          valueGetter: ({ data }) => data?.sums[column.key] ?? null,
          valueFormatter: ({ value }) => formatSum(value as string | null, percent, { decimalPlaces, decimalSeparator }),
        };
      }),
    ],
    [shape, firstWidth, decimalPlaces, decimalSeparator, intl],
  );

  const rowClassRules = useMemo<RowClassRules<ReportRowByKey>>(
    () => ({
      'report-row-highlight': ({ data }) => (data ? highlighted.has(data.key) : false),
      'report-row-match': ({ data, node }) => (data && node.rowPinned !== 'bottom' ? matched.has(data.key) : false),
      'report-row-total': ({ node }) => node.rowPinned === 'bottom',
    }),
    [highlighted, matched],
  );
  // Rows whose highlight or match starts or ends are drawn again (their class rules read the sets).
  const lastMarked = useRef<ReadonlySet<string>>(new Set());
  useEffect(() => {
    const api = gridApi.current;
    const marked = new Set([...highlighted, ...matched]);
    const keys = new Set([...lastMarked.current, ...marked]);
    lastMarked.current = marked;
    const rowNodes = [...keys].flatMap((key) => api?.getRowNode(key) ?? []);
    if (api && rowNodes.length > 0) api.redrawRows({ rowNodes });
  }, [highlighted, matched]);

  const context = useMemo<RowContext>(() => ({ expanded, matched, onToggle, rowText }), [expanded, matched, onToggle, rowText]);
  // The name cells read the expanded keys from the context: a toggle redraws their arrows.
  useEffect(() => {
    const api = gridApi.current;
    if (!api) return;
    api.setGridOption('context', context);
    api.refreshCells({ columns: ['name'], force: true });
  }, [context]);

  const menus = useMemo(() => new Map(columns.map(({ column, menu }) => [column.key, menu])), [columns]);
  const short = rows.length <= SHORT_REPORT_ROWS;

  return (
    <ColumnMenus.Provider value={menus}>
      <div ref={containerRef} className="report-grid">
        <DataGrid<ReportRowByKey>
          testId="report-grid"
          height={short ? 'auto' : '60vh'}
          domLayout={short ? 'autoHeight' : 'normal'}
          rowData={rows}
          pinnedBottomRowData={total ? [total] : []}
          columnDefs={columnDefs}
          context={context}
          getRowId={({ data }) => data.key}
          rowClassRules={rowClassRules}
          rowBuffer={20}
          enableBrowserTooltips
          ensureDomOrder
          suppressColumnVirtualisation
          onGridReady={({ api }) => {
            gridApi.current = api;
          }}
        />
      </div>
    </ColumnMenus.Provider>
  );
}

export const isBaseColumn = (column: ReportColumn) => column.key === REPORT_BASE_COLUMN_KEY;
