import {
  type Document,
  REPORT_FILTERS_MAX,
  type ReportColumnsSettings,
  type ReportFilter,
  type ReportRequest,
  type ReportViewSettings,
  type Scheme,
  type StoredSetting,
} from '@eelarve/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { classifiersQuery, reportKeys, reportQuery, reportUserSettingQuery, schemesQuery, storedSettingsQuery, useRememberReport } from './api';
import { type ColumnsState, columnsOfSettings, columnsSettingsOf, EMPTY_COLUMNS, type Expansion, requestComparisons, setExpansion } from './model/columns';
import { activeFilters, filterDefinitions, filterKeyOf, mergeFilters } from './model/filters';

/** Spec 3, section 9: the report loading timer. */
export const REPORT_LOADING_TIMER_MS = 15_000;

export type { Expansion };

/** What a saved view holds (type REPORT): the scheme, the grouping classifier and the filters with their order. */
export interface ViewState {
  schemeId: string;
  groupingClassifierId: string | null;
  filters: ReportFilter[];
  filtersOrder: string[];
}

/**
 * Spec 3, section 2, the loading sequence: read the user setting, then the filters (or the default
 * view's), then the report data, then show. Changing the scheme, grouping, columns or filters goes
 * back to the data step.
 */
export type LoadingStep = 'setting' | 'filters' | 'data' | 'ready' | 'error';

const firstView = (views: readonly StoredSetting[] | undefined) => views?.find((view) => view.type === 'REPORT')?.settings as ReportViewSettings | undefined;

/** The view the screen opens with: the remembered one, else the default (first) saved view, else no filters. */
function initialView(remembered: Partial<ReportViewSettings> | undefined, defaultView: ReportViewSettings | undefined, schemes: readonly Scheme[]): ViewState {
  const source = remembered && (remembered.filters?.length ?? 0) > 0 ? remembered : (defaultView ?? remembered ?? {});
  const known = (id: string | null | undefined) => (id && schemes.some((scheme) => scheme.id === id) ? id : undefined);
  return {
    schemeId: known(remembered?.rememberedSchemeId) ?? known(source.rememberedSchemeId) ?? schemes[0]?.id ?? '',
    groupingClassifierId: remembered?.rememberedGroupingClassifierId ?? source.rememberedGroupingClassifierId ?? null,
    filters: source.filters ?? [],
    filtersOrder: source.filtersOrder ?? [],
  };
}

/** What the screen reads before it can ask for the report (spec 3, section 2: the setting, then the filters). */
export interface ReportOpeningReads {
  remembered: Partial<ReportViewSettings> | undefined;
  rememberedColumns: Partial<ReportColumnsSettings> | undefined;
  views: readonly StoredSetting[] | undefined;
  schemes: readonly Scheme[];
}

/** The view and columns the screen opens with, from its reads. */
export function openingState(reads: ReportOpeningReads): { view: ViewState; columns: ColumnsState } {
  return { view: initialView(reads.remembered, firstView(reads.views), reads.schemes), columns: columnsOfSettings(reads.rememberedColumns) };
}

/** The chips of a view: every filter the scheme and the document's classifiers offer, with the view's choices. */
export function viewFilters(view: ViewState, masterClassifierId: string | null, classifierIds: readonly string[]): ReportFilter[] {
  return mergeFilters(filterDefinitions(view.schemeId, masterClassifierId, classifierIds), view.filters, view.filtersOrder);
}

/** The report request of a state; null until a scheme is known. The route's prefetch asks the same (report-prefetch.ts). */
export function reportRequestOf(
  view: ViewState | null,
  filters: readonly ReportFilter[],
  columns: ColumnsState,
  moment: { asOf: string | null; after: string | null } = { asOf: null, after: null },
): ReportRequest | null {
  if (!view?.schemeId) return null;
  return {
    schemeId: view.schemeId,
    groupingClassifierId: view.groupingClassifierId,
    filters: activeFilters(filters),
    basePeriod: columns.basePeriod,
    comparisons: requestComparisons(columns),
    calcColumns: columns.calcColumns,
    expansion: columns.expansion,
    componentColumns: columns.componentColumns,
    ...(moment.asOf ? { asOf: moment.asOf } : {}),
    ...(moment.after && !moment.asOf ? { after: moment.after } : {}),
  };
}

export function viewSettingsOf(view: ViewState, filters: readonly ReportFilter[]): ReportViewSettings {
  return {
    rememberedSchemeId: view.schemeId,
    rememberedGroupingClassifierId: view.groupingClassifierId,
    filters: filters.slice(0, REPORT_FILTERS_MAX),
    filterChanges: [],
    filtersOrder: filters.map((filter) => filterKeyOf(filter.key)).slice(0, REPORT_FILTERS_MAX),
  };
}

/** The report screen's state, its loading sequence, and what it remembers per budget (user settings REPORT and REPORT_COLUMNS). */
export function useReportState(document: Document, budgetId: string) {
  const remembered = useQuery(reportUserSettingQuery('REPORT', document.id, budgetId));
  const rememberedColumns = useQuery(reportUserSettingQuery('REPORT_COLUMNS', document.id, budgetId));
  const views = useQuery(storedSettingsQuery(document.id, budgetId, 'REPORT'));
  const schemes = useQuery(schemesQuery(document.id));
  const classifiers = useQuery(classifiersQuery(document.id));
  const [view, setView] = useState<ViewState | null>(null);
  const [columns, setColumns] = useState<ColumnsState>(EMPTY_COLUMNS);
  /** The moment the whole report is shown as of (issue 12, point 7); null: now. Not remembered: a report opens on the present. */
  const [asOf, setAsOf] = useState<string | null>(null);
  /** The log position of the latest change announced live: the report waits until it includes it. */
  const [after, setAfter] = useState<string | null>(null);
  const remember = useRememberReport(document.id, budgetId);
  const queryClient = useQueryClient();

  const settingRead = !remembered.isPending && !rememberedColumns.isPending;
  const filtersRead = settingRead && !views.isPending && !schemes.isPending && !classifiers.isPending;
  useEffect(() => {
    if (view !== null || !filtersRead || !schemes.data) return;
    const opening = openingState({
      remembered: remembered.data?.settings,
      rememberedColumns: rememberedColumns.data?.settings,
      views: views.data,
      schemes: schemes.data,
    });
    setView(opening.view);
    setColumns(opening.columns);
  }, [view, filtersRead, schemes.data, remembered.data, views.data, rememberedColumns.data]);

  const classifierIds = useMemo(() => (classifiers.data ?? []).map((classifier) => classifier.id), [classifiers.data]);
  const filters = useMemo(
    () => (view ? viewFilters(view, document.masterClassifierId, classifierIds) : []),
    [view, document.masterClassifierId, classifierIds],
  );
  const request = useMemo(() => reportRequestOf(view, filters, columns, { asOf, after }), [view, filters, columns, after, asOf]);
  const report = useQuery(reportQuery(budgetId, request));

  useRememberedWrites(view, filters, columns, remember.mutate);

  const step: LoadingStep = !settingRead
    ? 'setting'
    : !filtersRead || view === null
      ? 'filters'
      : report.isError
        ? 'error'
        : report.isFetching || !report.data
          ? 'data'
          : 'ready';
  const slow = useLoadingTimer(step === 'setting' || step === 'filters' || (step === 'data' && !!request));

  const changeView = (change: Partial<ViewState>) => setView((current) => (current ? { ...current, ...change } : current));
  const changeFilters = (next: ReportFilter[]) => changeView({ filters: next, filtersOrder: next.map((filter) => filterKeyOf(filter.key)) });
  /** Spec 3, section 2: the 'experiencingProblems' link resets to the default filters (and the plain columns). */
  const resetToDefault = () => {
    const defaults = firstView(views.data);
    changeView({
      filters: defaults?.filters ?? [],
      filtersOrder: defaults?.filtersOrder ?? [],
      groupingClassifierId: defaults?.rememberedGroupingClassifierId ?? null,
    });
    setColumns(EMPTY_COLUMNS);
    setAsOf(null);
  };

  return {
    step,
    slow,
    view,
    filters,
    columns,
    expansion: columns.expansion,
    asOf,
    request,
    report,
    schemes: schemes.data ?? [],
    classifiers: classifiers.data ?? [],
    noSchemes: schemes.isSuccess && schemes.data.length === 0,
    changeView,
    changeFilters,
    setColumns,
    setExpansion: (expansion: Expansion) => setColumns((current) => setExpansion(current, expansion)),
    setAsOf: (next: string | null) => {
      // Back to now: the present may have changed while the past was shown (live updates paused), so the answer held for now is read again.
      if (next === null && asOf !== null) void queryClient.invalidateQueries({ queryKey: reportKeys.budgetData(budgetId), refetchType: 'none' });
      setAsOf(next);
    },
    resetToDefault,
    /** Live reports (issue 12, point 8): the report is read again once it holds the change at `position`. */
    followChange: setAfter,
    columnsSettings: () => columnsSettingsOf(columns),
    viewSettings: () => (view ? viewSettingsOf(view, filters) : null),
  };
}

/** Writes the view and the columns to the user settings when they change (not the first state read back). */
function useRememberedWrites(
  view: ViewState | null,
  filters: readonly ReportFilter[],
  columns: ColumnsState,
  write: ReturnType<typeof useRememberReport>['mutate'],
) {
  const written = useRef<{ view?: string; columns?: string }>({});
  useEffect(() => {
    if (!view) return;
    const settings = viewSettingsOf(view, filters);
    const text = JSON.stringify(settings);
    if (written.current.view === undefined) written.current.view = text;
    else if (written.current.view !== text) {
      written.current.view = text;
      write({ type: 'REPORT', settings });
    }
  }, [view, filters, write]);
  useEffect(() => {
    if (!view) return;
    const settings = columnsSettingsOf(columns);
    const text = JSON.stringify(settings);
    if (written.current.columns === undefined) written.current.columns = text;
    else if (written.current.columns !== text) {
      written.current.columns = text;
      write({ type: 'REPORT_COLUMNS', settings });
    }
  }, [view, columns, write]);
}

/** True once loading has gone on for the report loading timer (15 s) without pause. */
function useLoadingTimer(loading: boolean): boolean {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    setSlow(false);
    if (!loading) return;
    const timer = window.setTimeout(() => setSlow(true), REPORT_LOADING_TIMER_MS);
    return () => window.clearTimeout(timer);
  }, [loading]);
  return slow;
}
