import type { BudgetHierarchyNode } from '@eelarve/shared';
import type { ColDef, FirstDataRenderedEvent, GetRowIdParams, RowSelectionOptions, SelectionChangedEvent, SelectionEventSourceType } from 'ag-grid-community';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { useCallback, useMemo } from 'react';
import { useIntl } from 'react-intl';
import { DataGrid } from '../../grid/DataGrid';
import { BudgetTypeIcon } from './BudgetTypeIcon';
import { type ComponentBlock, componentBlock, componentNames } from './components';

interface ComponentRow extends BudgetHierarchyNode {
  /** The component budgets' names joined by "; " (spec 2, Budget form). */
  components: string;
  block: ComponentBlock;
}

/** Selections the user makes; the grid's own ones (initial selection, row data changes) are not. */
const USER_SOURCES: ReadonlySet<SelectionEventSourceType> = new Set([
  'checkboxSelected',
  'rowClicked',
  'spaceKey',
  'keyboardSelectAll',
  'uiSelectAll',
  'uiSelectAllFiltered',
  'uiSelectAllCurrentPage',
]);

/** Rows up to which the table grows with its rows; beyond it scrolls. */
const AUTO_HEIGHT_ROWS = 8;

/**
 * The budgets a sum budget adds up (spec 2, Budget form: "a selectable table of budgets to sum (name,
 * components)"; section 5: a component is disabled if read-only, or already added up by a selected
 * budget; the edited budget is excluded by the caller).
 */
export function BudgetComponentsGrid({
  nodes,
  hierarchy,
  value,
  onChange,
}: {
  /** The budgets that may be chosen (the edited budget left out). */
  nodes: readonly BudgetHierarchyNode[];
  /** The whole document's hierarchy (for names and descendants). */
  hierarchy: readonly BudgetHierarchyNode[];
  value: readonly string[];
  onChange: (ids: string[]) => void;
}) {
  const intl = useIntl();
  const rows = useMemo<ComponentRow[]>(
    () => nodes.map((node) => ({ ...node, components: componentNames(node, hierarchy), block: componentBlock(node, value, hierarchy) })),
    [nodes, hierarchy, value],
  );
  const columns = useMemo<ColDef<ComponentRow>[]>(
    () => [
      {
        colId: 'name',
        field: 'name',
        headerName: intl.formatMessage({ id: 'budgets.components.column.name' }),
        flex: 1,
        minWidth: 220,
        cellRenderer: ComponentNameCell,
      },
      {
        colId: 'components',
        field: 'components',
        headerName: intl.formatMessage({ id: 'budgets.components.column.components' }),
        flex: 1.4,
        minWidth: 220,
        tooltipField: 'components',
      },
    ],
    [intl],
  );
  const rowSelection = useMemo<RowSelectionOptions<ComponentRow>>(
    () => ({
      mode: 'multiRow',
      checkboxes: true,
      headerCheckbox: false,
      enableClickSelection: true,
      isRowSelectable: (node) => node.data !== undefined && node.data.block === null,
    }),
    [],
  );
  const rowId = useCallback(({ data }: GetRowIdParams<ComponentRow>) => data.id, []);

  const onFirstDataRendered = (event: FirstDataRenderedEvent<ComponentRow>) => {
    const chosen = new Set(value);
    const selected: NonNullable<ReturnType<typeof event.api.getRowNode>>[] = [];
    event.api.forEachNode((node) => {
      if (node.data && chosen.has(node.data.id)) selected.push(node);
    });
    if (selected.length > 0) event.api.setNodesSelected({ nodes: selected, newValue: true, source: 'api' });
  };

  const onSelectionChanged = (event: SelectionChangedEvent<ComponentRow>) => {
    if (!USER_SOURCES.has(event.source)) return;
    const shown = new Set(rows.map((row) => row.id));
    const picked = event.api.getSelectedRows().map((row) => row.id);
    // Chosen budgets the table cannot change (not shown, or not selectable) stay chosen.
    const kept = value.filter((id) => !shown.has(id) || rows.find((row) => row.id === id)?.block !== null);
    const order = new Map(hierarchy.map((node, index) => [node.id, index]));
    onChange([...new Set([...kept, ...picked])].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0)));
  };

  const auto = rows.length <= AUTO_HEIGHT_ROWS;
  return (
    <DataGrid<ComponentRow>
      testId="budget-components-grid"
      height={auto ? 'auto' : 360}
      domLayout={auto ? 'autoHeight' : 'normal'}
      rowData={rows}
      getRowId={rowId}
      columnDefs={columns}
      rowSelection={rowSelection}
      onFirstDataRendered={onFirstDataRendered}
      onSelectionChanged={onSelectionChanged}
      rowClassRules={{ 'row-disabled': ({ data }) => data !== undefined && data.block !== null }}
      tooltipShowDelay={300}
    />
  );
}

function ComponentNameCell({ data }: CustomCellRendererProps<ComponentRow>) {
  const intl = useIntl();
  if (!data) return null;
  const reason = data.block === 'readDisabled' ? 'budgets.components.readDisabled' : data.block === 'inSelected' ? 'budgets.components.inSelected' : null;
  return (
    <span
      className="component-name-cell"
      title={reason ? intl.formatMessage({ id: reason }) : undefined}
      data-testid="budget-component"
      data-budget-name={data.name}
      data-blocked={data.block ?? undefined}
    >
      <BudgetTypeIcon type={data.type} />
      <span className="component-name">{data.name}</span>
    </span>
  );
}
