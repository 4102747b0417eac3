import { REPORT_BASE_COLUMN_KEY, type ReportColumn, type ReportFilter, type ReportRowByKey } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useDocument } from '../../app/document/current-document';
import { useCurrentUser } from '../../app/session';
import { Alert } from '../../components/Alert';
import type { DropdownItem } from '../../components/DropdownMenu';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Spinner } from '../../components/Spinner';
import { amountFormatOf, DEFAULT_DATE_FORMAT } from '../../i18n/format';
import { budgetsQuery, classifierItemsQuery, subBudgetsQuery, useLogReportView } from './api';
import { AsOfBanner, AsOfPicker, type MomentBounds } from './AsOf';
import { CalcForm, ComparisonForm, PeriodModal } from './ColumnForms';
import { columnTitles } from './columnTitles';
import { useReportExport } from './export/useReportExport';
import { type FilterChoices, FilterChips, FilterVisibilityMenu } from './FilterChips';
import {
  addCalcColumn,
  addComparison,
  canMove,
  columnsOfSettings,
  displayColumns,
  moveColumn,
  operandColumns,
  periodOf,
  removeColumn,
  setComponentColumns,
  setPeriod,
} from './model/columns';
import { matchingRows } from './model/filters';
import { momentLabel } from './model/moment';
import { useReportLiveUpdates } from './live/useReportLiveUpdates';
import { changedRows, toggled, visibleRows } from './model/tree';
import { Popover } from './Popover';
import { type GridColumn, ReportGrid } from './ReportGrid';
import { SavedSettingsMenu } from './SavedSettingsMenu';
import { type Expansion, useReportState } from './useReportState';
import './report.css';

/** Spec 3, section 9: a changed row stays highlighted 4 s, then fades over 2 s. */
export const ROW_HIGHLIGHT_MS = 4000;
export const ROW_FADE_MS = 2000;

export interface ReportScreenProps {
  budgetId: string;
  budgetName: string;
}

/** Rows whose sums changed since the previous answer, highlighted for 4 s + 2 s (the fade is report.css's). */
function useRowHighlight(rows: readonly ReportRowByKey[] | undefined): ReadonlySet<string> {
  const previous = useRef<readonly ReportRowByKey[] | undefined>(undefined);
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    if (!rows) return;
    const changed = changedRows(previous.current, rows);
    previous.current = rows;
    if (changed.length === 0) return;
    setHighlighted(new Set(changed));
    const timer = window.setTimeout(() => setHighlighted(new Set()), ROW_HIGHLIGHT_MS + ROW_FADE_MS);
    return () => window.clearTimeout(timer);
  }, [rows]);
  return highlighted;
}

/** Logs REPORT_VIEW once per budget opened (the dashboard's recently visited reports). */
function useReportViewLog(documentId: string, budgetId: string) {
  const log = useLogReportView();
  const logged = useRef<string | null>(null);
  useEffect(() => {
    if (logged.current === budgetId) return;
    logged.current = budgetId;
    log.mutate({ actionType: 'REPORT_VIEW', documentId, budgetId });
  }, [documentId, budgetId, log]);
}

function AlertIcon() {
  return (
    <svg width={18} height={18} viewBox="0 0 18 18" aria-hidden="true" focusable="false" className="report-alert-icon">
      <path d="M9 1.5 17 16H1z" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
      <path d="M9 7v4M9 13v.5" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

/**
 * /document/{d}/budget/{b}/report (spec 3, section 2; issue 12, point 5): the top bar (scheme,
 * grouping classifier, saved views and column sets, filter visibility, comparison and calculated
 * columns, export), the filter chips, and the report table in a vertical split that leaves room
 * for the ERP records and comments panes (later issues).
 */
export function ReportScreen({ budgetId, budgetName }: ReportScreenProps) {
  const intl = useIntl();
  const id = useId();
  const document = useDocument();
  const me = useCurrentUser();
  const state = useReportState(document, budgetId);
  const { view, filters, columns, report } = state;
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [periodFor, setPeriodFor] = useState<string | null>(null);
  const budgets = useQuery(budgetsQuery(document.id));
  const classifierIds = useMemo(() => state.classifiers.map((classifier) => classifier.id), [state.classifiers]);
  const items = useQuery(classifierItemsQuery(classifierIds));
  const subBudgets = useQuery(subBudgetsQuery(budgetId, view?.schemeId ?? ''));
  const exporter = useReportExport();
  const amountFormat = amountFormatOf(me.organizationLocaleSettings);
  const dateFormat = me.organizationLocaleSettings?.dateFormat ?? DEFAULT_DATE_FORMAT;
  const bounds = useMemo<MomentBounds>(() => ({ createdAt: document.createdAt, dateFormat }), [document.createdAt, dateFormat]);
  const isSumBudget = budgets.data?.find((budget) => budget.id === budgetId)?.type === 'SUM_BUDGET';
  useReportViewLog(document.id, budgetId);
  // Someone changed the budget's records: read the report again (expanded rows and scroll stay, changed rows light up).
  // The past does not change: live updates pause while the report is shown as of a moment.
  useReportLiveUpdates(budgetId, (change) => state.followChange(change.position), state.request !== null && state.asOf === null);

  const data = report.data;
  const highlighted = useRowHighlight(data?.rows);
  const rows = useMemo(() => visibleRows(data?.rows ?? [], expanded), [data, expanded]);
  const matched = useMemo(() => matchingRows(data?.rows ?? [], filters), [data, filters]);
  const titles = useMemo(
    () => columnTitles(data?.columns ?? [], budgetName, intl, { label: (iso) => momentLabel(iso, dateFormat), reportAsOf: data?.asOf ?? null }),
    [data, budgetName, intl, dateFormat],
  );
  const shownColumns = useMemo(() => displayColumns(data?.columns ?? [], columns), [data, columns]);
  const titleOf = useCallback((column: ReportColumn) => titles.get(column.key) ?? column.key, [titles]);

  const rowText = useCallback(
    (row: ReportRowByKey) => (row.type === 'UNFIT' ? intl.formatMessage({ id: 'report.unfit' }) : row.text || intl.formatMessage({ id: 'report.noValue' })),
    [intl],
  );
  const onToggle = useCallback((key: string) => setExpanded((current) => toggled(current, key)), []);

  const choices = useMemo<FilterChoices>(() => {
    const classifierName = new Map(state.classifiers.map((classifier) => [classifier.id, classifier.name]));
    return {
      name: (filter: ReportFilter) =>
        filter.key.type === 'SUB_BUDGET' ? intl.formatMessage({ id: 'report.filter.subBudget' }) : (classifierName.get(filter.key.id) ?? filter.key.id),
      items: (filter: ReportFilter) =>
        filter.key.type === 'SUB_BUDGET'
          ? (subBudgets.data ?? []).map((subBudget) => ({ value: subBudget.id, code: subBudget.name, name: subBudget.name }))
          : (items.data?.list ?? [])
              .filter((item) => item.classifierId === filter.key.id)
              .map((item) => ({ value: item.code, code: item.code, name: item.name })),
    };
  }, [state.classifiers, subBudgets.data, items.data, intl]);

  const menuOf = (column: ReportColumn): DropdownItem[] => {
    const item = (key: string, onSelect: () => void): DropdownItem => ({
      key,
      label: intl.formatMessage({ id: `report.columnMenu.${key}` as 'report.columnMenu.remove' }),
      onSelect,
      testId: `report-column-${key}`,
    });
    const menu: DropdownItem[] = [];
    const isBase = column.key === REPORT_BASE_COLUMN_KEY;
    const isComponent = column.key.startsWith('component:');
    if (!isBase && !isComponent) {
      menu.push(item('remove', () => state.setColumns(removeColumn(columns, column.key))));
      if (canMove(columns, column.key, -1)) menu.push(item('left', () => state.setColumns(moveColumn(columns, column.key, -1))));
      if (canMove(columns, column.key, 1)) menu.push(item('right', () => state.setColumns(moveColumn(columns, column.key, 1))));
    }
    if (column.kind === 'SUM' && !isComponent) {
      menu.push(item('period', () => setPeriodFor(column.key)));
      if (periodOf(columns, column.key)) menu.push(item('removePeriod', () => state.setColumns(setPeriod(columns, column.key, null))));
    }
    if (column.kind === 'SUM') {
      const expansions: Array<[Expansion, string]> = [
        ['quarterly', 'quarterly'],
        ['monthly', 'monthly'],
        ['none', 'noExpansion'],
      ];
      for (const [expansion, key] of expansions) if (expansion !== state.expansion) menu.push(item(key, () => state.setExpansion(expansion)));
    }
    return menu;
  };
  const gridColumns: GridColumn[] = shownColumns.map((column) => ({
    column,
    title: titleOf(column),
    menu: column.parentKey === null ? menuOf(column) : [],
  }));

  const exportReport = () => {
    if (!data) return;
    exporter.mutate({
      fileName: budgetName,
      content: {
        nameHeader: intl.formatMessage({ id: 'report.column.name' }),
        columns: shownColumns.map((column) => ({ key: column.key, header: titleOf(column), percent: column.operation === 'percent' })),
        rows: rows.map((row) => ({ text: rowText(row), depth: row.depth, sums: row.sums })),
        total: { text: intl.formatMessage({ id: 'report.total' }), depth: 0, sums: data.total.sums },
        decimalPlaces: amountFormat.decimalPlaces,
      },
    });
  };

  if (state.noSchemes) {
    return (
      <Alert kind="info" testId="report-no-schemes">
        <FormattedMessage id="report.noSchemes" />
      </Alert>
    );
  }

  return (
    <section className="report-screen" data-testid="report-screen" data-step={state.step} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="visually-hidden">
        <FormattedMessage id="report.title" />
      </h2>
      {view ? (
        <div className="report-toolbar" data-testid="report-toolbar">
          <label className="report-picker">
            <span>
              <FormattedMessage id="report.scheme" />
            </span>
            <select value={view.schemeId} onChange={(event) => state.changeView({ schemeId: event.target.value })} data-testid="report-scheme">
              {state.schemes.map((scheme) => (
                <option key={scheme.id} value={scheme.id}>
                  {scheme.name}
                </option>
              ))}
            </select>
          </label>
          <label className="report-picker">
            <span>
              <FormattedMessage id="report.grouping" />
            </span>
            <select
              value={view.groupingClassifierId ?? ''}
              onChange={(event) => state.changeView({ groupingClassifierId: event.target.value || null })}
              data-testid="report-grouping"
            >
              <option value="">{intl.formatMessage({ id: 'report.grouping.none' })}</option>
              {state.classifiers.map((classifier) => (
                <option key={classifier.id} value={classifier.id}>
                  {classifier.name}
                </option>
              ))}
            </select>
          </label>
          <SavedSettingsMenu
            scope={{ documentId: document.id, budgetId, organizationId: document.organizationId, userId: me.id, canPromote: document.permissions.update }}
            currentView={state.viewSettings}
            currentColumns={state.columnsSettings}
            onApplyView={(settings) =>
              state.changeView({
                schemeId:
                  settings.rememberedSchemeId && state.schemes.some((scheme) => scheme.id === settings.rememberedSchemeId)
                    ? settings.rememberedSchemeId
                    : view.schemeId,
                groupingClassifierId: settings.rememberedGroupingClassifierId ?? null,
                filters: settings.filters,
                filtersOrder: settings.filtersOrder,
              })
            }
            onApplyColumns={(settings) => state.setColumns(columnsOfSettings(settings))}
          />
          <FilterVisibilityMenu filters={filters} choices={choices} onChange={state.changeFilters} />
          <Popover
            label={<FormattedMessage id="report.comparison.add" />}
            title={intl.formatMessage({ id: 'report.comparison.add' })}
            testId="report-add-comparison"
          >
            {(close) => (
              <ComparisonForm
                budgets={(budgets.data ?? []).filter((budget) => budget.permissions?.read !== false)}
                baseBudgetId={budgetId}
                period={document.period}
                bounds={bounds}
                onAdd={(comparison) => {
                  state.setColumns(addComparison(columns, comparison));
                  close();
                }}
              />
            )}
          </Popover>
          <Popover label={<FormattedMessage id="report.calc.add" />} title={intl.formatMessage({ id: 'report.calc.add' })} testId="report-add-calc">
            {(close) => (
              <CalcForm
                operands={operandColumns(shownColumns)}
                titleOf={(column) => {
                  const parent = column.parentKey ? titles.get(column.parentKey) : undefined;
                  return parent ? `${parent} ${titleOf(column)}` : titleOf(column);
                }}
                onAdd={(calc) => {
                  state.setColumns(addCalcColumn(columns, calc));
                  close();
                }}
              />
            )}
          </Popover>
          {isSumBudget ? (
            <label className="checkbox-label report-toolbar-check">
              <input
                type="checkbox"
                checked={columns.componentColumns}
                onChange={(event) => state.setColumns(setComponentColumns(columns, event.target.checked))}
                data-testid="report-component-columns"
              />
              <FormattedMessage id="report.components" />
            </label>
          ) : null}
          <AsOfPicker asOf={state.asOf} bounds={bounds} onChange={state.setAsOf} />
          <button
            type="button"
            className="button"
            onClick={exportReport}
            disabled={!data || exporter.isPending}
            title={intl.formatMessage({ id: 'report.exportTitle' })}
            aria-busy={exporter.isPending}
            data-testid="report-export"
          >
            <FormattedMessage id="report.export" />
          </button>
        </div>
      ) : null}
      {state.asOf ? <AsOfBanner asOf={state.asOf} dateFormat={dateFormat} onNow={() => state.setAsOf(null)} /> : null}
      {view ? <FilterChips filters={filters} choices={choices} onChange={state.changeFilters} /> : null}
      {state.slow ? (
        <Alert kind="warning" testId="report-slow">
          <FormattedMessage id="report.experiencingProblems" />{' '}
          <button type="button" className="link-button" onClick={state.resetToDefault} data-testid="report-reset">
            <FormattedMessage id="report.resetToDefault" />
          </button>
        </Alert>
      ) : null}
      {state.step === 'error' ? (
        <div className="report-error" role="alert" data-testid="report-error">
          <AlertIcon />
          <ErrorAlert error={report.error} title={<FormattedMessage id="report.error" />} />
        </div>
      ) : null}
      {!data && state.step !== 'error' ? (
        <div className="report-loading" data-testid="report-loading">
          <Spinner />
          <FormattedMessage id={`report.loading.${state.step === 'setting' ? 'setting' : state.step === 'filters' ? 'filters' : 'data'}`} />
        </div>
      ) : null}
      <div className="report-split">
        {data && state.step !== 'error' ? (
          <div className="report-pane report-pane-main" aria-busy={report.isFetching} data-testid="report-pane">
            <ReportGrid
              rows={rows}
              total={{ ...data.total, text: intl.formatMessage({ id: 'report.total' }) }}
              columns={gridColumns}
              expanded={expanded}
              onToggle={onToggle}
              rowText={rowText}
              highlighted={highlighted}
              matched={matched}
              amountFormat={amountFormat}
            />
          </div>
        ) : null}
        {/* The ERP records pane (monitoring budgets) and the comments pane join this split in later issues. */}
      </div>
      {periodFor ? (
        <PeriodModal
          period={document.period}
          current={periodOf(columns, periodFor)}
          onClose={() => setPeriodFor(null)}
          onApply={(period) => {
            state.setColumns(setPeriod(columns, periodFor, period));
            setPeriodFor(null);
          }}
        />
      ) : null}
    </section>
  );
}
