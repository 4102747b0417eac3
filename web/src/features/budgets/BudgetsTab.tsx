import { useQuery } from '@tanstack/react-query';
import type { ColDef, GridApi, RowDragEndEvent } from 'ag-grid-community';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { useEffect, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { ConfirmActionDialog } from '../../components/ConfirmAction';
import { PlusIcon } from '../../components/icons';
import { MultiSelect } from '../../components/MultiSelect';
import { actionsColumn } from '../../grid/columns';
import { QueryGrid } from '../../grid/QueryGrid';
import { useGridSearch } from '../../grid/search';
import { GridToolbar } from '../../grid/GridToolbar';
import { useDocument } from '../../app/document/current-document';
import { useCurrentUser } from '../../app/session';
import { usesResourceStatuses } from '../../components/ResourceStatusSelect';
import { statusLockReason } from '../../components/status-lock/StatusLock';
import { textComparator } from '../../grid/columns';
import { useRowHighlight } from '../../grid/useInlineRowEditing';
import { useBudgetTags, useDeleteBudget, useReorderBudgets } from './api/mutations';
import { type BudgetView, budgetListQuery } from './api/queries';
import { BudgetActionsCell, BudgetNameCell, BudgetStatusCell, type BudgetsGridContext, TagsCell } from './BudgetCells';
import { takeCreatedBudgets } from './recently-created';
import { BudgetTypeIcon } from './BudgetTypeIcon';
import { filterByStatuses, type StatusDisplay, statusDisplays, statusFilterOptions } from './status-filter';
import { filterByTags } from './tag-filter';
import './budgets.css';

/** /document/{documentId}/budgets (spec 2, Budget list table). */
export function BudgetsTab() {
  const intl = useIntl();
  const document = useDocument();
  const documentId = document.id;
  const navigate = useNavigate();
  const [editOrder, setEditOrder] = useState(false);
  const budgets = useQuery(budgetListQuery(documentId));
  const { search, setSearch, rows: found } = useGridSearch(budgets.data, (budget) => [budget.name, ...budget.tags, budget.info ?? '']);
  const [tagFilter, setTagFilter] = useState<string[]>([]);
  const allTags = useMemo(() => [...new Set((budgets.data ?? []).flatMap((budget) => budget.tags))].sort(), [budgets.data]);
  const tagOptions = useMemo(() => allTags.map((tag) => ({ value: tag, label: tag })), [allTags]);
  // Tag filter: any of the chosen tags that budgets still carry (spec 2, Budget list table).
  const activeTags = useMemo(() => tagFilter.filter((tag) => allTags.includes(tag)), [tagFilter, allTags]);
  const { statuses, statusOptions, statusFilter, setStatusFilter } = useStatusFilter();
  const rows = useMemo(() => filterByStatuses(filterByTags(found, activeTags), statusFilter), [found, activeTags, statusFilter]);
  const canWrite = document.permissions.update;
  const me = useCurrentUser();
  const noMaster = document.masterClassifierId === null;

  const remove = useDeleteBudget();
  const [gridApi, setGridApi] = useState<GridApi<BudgetView> | null>(null);
  const confirmingId = remove.target?.id ?? null;

  // A budget created since the list was last shown: its row is highlighted for a while (spec 2, Budget list table).
  const { highlighted, highlight } = useRowHighlight();
  useEffect(() => {
    for (const id of takeCreatedBudgets((budgets.data ?? []).map((budget) => budget.id))) highlight(id);
  }, [budgets.data, highlight]);

  // The row asked about stays highlighted while the confirmation is open; new rows while highlighted.
  // biome-ignore lint/correctness/useExhaustiveDependencies: redraws whenever the confirmed or the highlighted rows change
  useEffect(() => {
    if (gridApi && !gridApi.isDestroyed()) gridApi.redrawRows();
  }, [gridApi, confirmingId, highlighted]);

  const tags = useBudgetTags(documentId);
  const { reorder } = useReorderBudgets(documentId);

  const onRowDragEnd = (event: RowDragEndEvent<BudgetView>) => {
    const ids: string[] = [];
    event.api.forEachNode((node) => {
      if (node.data) ids.push(node.data.id);
    });
    const before = (budgets.data ?? []).map((budget) => budget.id);
    if (ids.join() === before.join()) return;
    reorder(ids);
  };

  const columns = useMemo<ColDef<BudgetView>[]>(() => {
    const definitions: ColDef<BudgetView>[] = [
      {
        colId: 'type',
        field: 'type',
        headerName: intl.formatMessage({ id: 'budgets.column.type' }),
        width: editOrder ? 96 : 72,
        rowDrag: editOrder,
        sortable: false,
        cellRenderer: ({ data }: CustomCellRendererProps<BudgetView>) => (data ? <BudgetTypeIcon type={data.type} /> : null),
      },
      {
        colId: 'name',
        field: 'name',
        headerName: intl.formatMessage({ id: 'budgets.column.name' }),
        // Dragging needs the rows in their stored order.
        sortable: !editOrder,
        flex: 1.4,
        minWidth: 200,
        cellRenderer: BudgetNameCell,
      },
      {
        colId: 'tags',
        headerName: intl.formatMessage({ id: 'budgets.column.tags' }),
        flex: 1.2,
        minWidth: 220,
        sortable: false,
        valueGetter: ({ data }) => data?.tags.join(', ') ?? '',
        cellRenderer: TagsCell,
      },
      {
        colId: 'info',
        field: 'info',
        headerName: intl.formatMessage({ id: 'budgets.column.info' }),
        flex: 1.2,
        minWidth: 200,
        sortable: false,
        tooltipField: 'info',
      },
    ];
    // Spec 2, Budget list table: the status column only where the organisation uses statuses.
    if (statusOptions.length > 0) {
      // Dragging needs the rows in their stored order.
      definitions.splice(3, 0, { ...statusColumn(intl.formatMessage({ id: 'budgets.column.status' }), statuses, intl.locale), sortable: !editOrder });
    }
    if (canWrite && !editOrder) definitions.push(actionsColumn(intl.formatMessage({ id: 'common.actions' }), 104, BudgetActionsCell));
    return definitions;
  }, [intl, canWrite, editOrder, statuses, statusOptions.length]);

  const context = useMemo<BudgetsGridContext>(
    () => ({
      documentId,
      canWrite,
      deletingId: remove.target?.id ?? null,
      highlighted,
      onEdit: (budget) => navigate(`/document/${documentId}/budget/${budget.id}/edit`),
      onDelete: remove.ask,
      onTags: (budget, next) => tags.mutate({ budget, tags: next }),
      statuses,
    }),
    [documentId, canWrite, remove.target, remove.ask, navigate, tags.mutate, highlighted, statuses],
  );

  // New budgets are the document's data: its status may lock them (spec 2, section 5).
  const statusLock = statusLockReason(intl, me, document.permissions, { document: document.resourceStatusId }, ['READ_DISABLED', 'RESOURCE_WRITE_DISABLED']);
  const addDisabledReason = noMaster
    ? intl.formatMessage({ id: 'budgets.add.noMaster' })
    : !canWrite
      ? intl.formatMessage({ id: 'budgets.add.noPermission' })
      : (statusLock ?? null);

  return (
    <section className="budgets-tab" data-testid="budgets-tab">
      <div className="budgets-heading">
        <h2 className="section-title">
          <FormattedMessage id="budgets.title" />
        </h2>
        <div className="budgets-heading-actions">
          {canWrite ? (
            <button
              type="button"
              className={editOrder ? 'button button-primary' : 'button'}
              onClick={() => {
                setSearch('');
                setTagFilter([]);
                setStatusFilter([]);
                setEditOrder((value) => !value);
              }}
              data-testid="budgets-edit-order"
              aria-pressed={editOrder}
            >
              <FormattedMessage id={editOrder ? 'budgets.order.done' : 'budgets.order.edit'} />
            </button>
          ) : null}
          <span title={addDisabledReason ?? undefined} data-testid="budgets-add-tooltip">
            <button
              type="button"
              className="button button-primary"
              disabled={addDisabledReason !== null}
              onClick={() => navigate(`/document/${documentId}/budgets/create`)}
              data-testid="budgets-add"
            >
              <PlusIcon />
              <FormattedMessage id="budgets.add" />
            </button>
          </span>
        </div>
      </div>
      {editOrder ? null : (
        <div className="budgets-filters">
          <GridToolbar searchLabel="budgets.search" search={search} onSearch={setSearch} searchTestId="budgets-search" />
          {allTags.length > 0 ? (
            <div className="tag-filter" data-testid="budgets-tag-filter-field">
              <span className="muted tag-filter-label" aria-hidden="true">
                <FormattedMessage id="budgets.tags.filter" />
              </span>
              {/* Spec 2, Budget list table and section 9: a select filter showing up to 3 chosen tags, searchable from 11 tags on. */}
              <MultiSelect
                options={tagOptions}
                value={activeTags}
                onChange={setTagFilter}
                placeholder={intl.formatMessage({ id: 'budgets.tags.filterPlaceholder' })}
                label={intl.formatMessage({ id: 'budgets.column.tags' })}
                maxShown={3}
                inline
                selectAll={false}
                testId="budgets-tag-filter"
              />
            </div>
          ) : null}
          {statusOptions.length > 0 ? (
            <div className="tag-filter" data-testid="budgets-status-filter-field">
              <span className="muted tag-filter-label" aria-hidden="true">
                <FormattedMessage id="budgets.status.filter" />
              </span>
              {/* Spec 2, Budget list table: a select filter over the organisation's statuses. */}
              <MultiSelect
                options={statusOptions}
                value={statusFilter}
                onChange={setStatusFilter}
                placeholder={intl.formatMessage({ id: 'budgets.status.filterPlaceholder' })}
                label={intl.formatMessage({ id: 'budgets.column.status' })}
                maxShown={2}
                inline
                selectAll={false}
                testId="budgets-status-filter"
              />
            </div>
          ) : null}
        </div>
      )}
      {editOrder ? (
        <p className="muted" data-testid="budgets-order-hint">
          <FormattedMessage id="budgets.order.hint" />
        </p>
      ) : null}
      <QueryGrid<BudgetView>
        query={budgets}
        rows={editOrder ? (budgets.data ?? []) : rows}
        loadFailed="budgets.loadFailed"
        testId="budgets-grid"
        height="60vh"
        columnDefs={columns}
        context={context}
        rowDragManaged={editOrder}
        onRowDragEnd={onRowDragEnd}
        onGridReady={(event) => setGridApi(event.api)}
        rowClassRules={{
          'row-confirming': ({ data, context: ctx }) => data?.id === (ctx as BudgetsGridContext).deletingId,
          'row-highlighted': ({ data, context: ctx }) => data !== undefined && (ctx as BudgetsGridContext).highlighted.has(data.id),
        }}
        tooltipShowDelay={400}
      />
      <ConfirmActionDialog
        action={remove}
        testId="budget-delete-dialog"
        title={<FormattedMessage id="budgets.delete.title" />}
        message={(budget) => <FormattedMessage id="budgets.delete.question" values={{ name: budget.name }} />}
        confirmLabel={<FormattedMessage id="common.delete" />}
        failedTitle={<FormattedMessage id="budgets.delete.failed" />}
        errorTestId="budget-delete-error"
      />
    </section>
  );
}

/**
 * The organisation's statuses for the status column and its filter: none where the organisation
 * does not use statuses. A chosen status that no longer exists filters nothing out.
 */
function useStatusFilter() {
  const intl = useIntl();
  const me = useCurrentUser();
  const organizationLanguage = me.organizationLocaleSettings?.language;
  const used = usesResourceStatuses(me);
  const statuses = useMemo(
    () => statusDisplays(used ? me.resourceStatuses : [], intl.locale, organizationLanguage),
    [used, me.resourceStatuses, intl.locale, organizationLanguage],
  );
  const statusOptions = useMemo(() => statusFilterOptions(statuses), [statuses]);
  const [chosen, setStatusFilter] = useState<string[]>([]);
  const statusFilter = useMemo(() => chosen.filter((id) => statuses.has(id)), [chosen, statuses]);
  return { statuses, statusOptions, statusFilter, setStatusFilter };
}

/** The status column: icon and name, sorted by the name. */
function statusColumn(headerName: string, statuses: ReadonlyMap<string, StatusDisplay>, locale: string): ColDef<BudgetView> {
  return {
    colId: 'status',
    headerName,
    flex: 0.8,
    minWidth: 160,
    valueGetter: ({ data }) => (data?.resourceStatusId ? (statuses.get(data.resourceStatusId)?.name ?? '') : ''),
    comparator: textComparator(locale),
    cellRenderer: BudgetStatusCell,
  };
}
