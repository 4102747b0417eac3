import type {
  Budget,
  Classifier,
  ClassifierItem,
  CommandResult,
  ReportColumnsSettings,
  ReportRequest,
  ReportResponse,
  ReportViewSettings,
  Scheme,
  StoredSetting,
  StoredSettingCreate,
  StoredSettingsOrder,
  StoredSettingType,
  StoredSettingUpdate,
  SubBudget,
  UserActionLogInput,
} from '@eelarve/shared';
import { reportSumsByKey } from '@eelarve/shared';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api';
import type { MutationCallbacks } from '../../app/mutation';
import { rememberReportOpening } from './opening-memory';
import { classifiersPath, schemesPath, storedSettingsPath, userSettingPath } from './opening-paths';

/**
 * The report screen's calls (spec 3, section 7; issue 12): the report itself, the user settings
 * that remember its state, the saved views and column sets, and the REPORT_VIEW action log.
 */
const enc = encodeURIComponent;

/** Every query of the report screen starts with `report`. */
export const reportKeys = {
  all: ['report'] as const,
  data: (budgetId: string, request: ReportRequest) => ['report', 'data', budgetId, request] as const,
  /** Every report answer of a budget. */
  budgetData: (budgetId: string) => ['report', 'data', budgetId] as const,
  userSetting: (type: 'REPORT' | 'REPORT_COLUMNS', budgetId: string) => ['report', 'user-setting', type, budgetId] as const,
  stored: (documentId: string, budgetId: string, type: StoredSettingType) => ['report', 'stored-settings', documentId, budgetId, type] as const,
  schemes: (documentId: string) => ['report', 'schemes', documentId] as const,
  classifiers: (documentId: string) => ['report', 'classifiers', documentId] as const,
  items: (classifierIds: readonly string[]) => ['report', 'classifier-items', [...classifierIds].sort().join(',')] as const,
  subBudgets: (budgetId: string, schemeId: string) => ['report', 'sub-budgets', budgetId, schemeId] as const,
  budgets: (documentId: string) => ['report', 'budgets', documentId] as const,
};

/**
 * The report of a budget, computed by the server; the previous answer stays on screen while the
 * next loads. The answer lists each row's sums in the columns' order; the screen (grid, export,
 * live highlights) reads them by column key.
 */
export const reportQuery = (budgetId: string, request: ReportRequest | null) =>
  queryOptions({
    queryKey: reportKeys.data(budgetId, request ?? { schemeId: '' }),
    queryFn: async () => {
      if (request) rememberReportOpening(budgetId, request);
      return reportSumsByKey(await api.post<ReportResponse>(`/api/budget/${enc(budgetId)}/report`, request));
    },
    enabled: request !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });

interface UserSettingAnswer<T> {
  type: string;
  settings: Partial<T>;
}

/** What the user last had on this budget's report (an empty object the first time). */
export const reportUserSettingQuery = <T extends 'REPORT' | 'REPORT_COLUMNS'>(type: T, documentId: string, budgetId: string) =>
  queryOptions({
    queryKey: reportKeys.userSetting(type, budgetId),
    queryFn: () => api.get<UserSettingAnswer<T extends 'REPORT' ? ReportViewSettings : ReportColumnsSettings>>(userSettingPath(type, documentId, budgetId)),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The saved views (REPORT) or column sets (REPORT_COLUMNS) the user sees on this budget, in their order. */
export const storedSettingsQuery = (documentId: string, budgetId: string, type: StoredSettingType) =>
  queryOptions({
    queryKey: reportKeys.stored(documentId, budgetId, type),
    queryFn: () => api.get<StoredSetting[]>(storedSettingsPath(documentId, budgetId, type)),
  });

export const schemesQuery = (documentId: string) =>
  queryOptions({ queryKey: reportKeys.schemes(documentId), queryFn: () => api.get<Scheme[]>(schemesPath(documentId)) });

export const classifiersQuery = (documentId: string) =>
  queryOptions({
    queryKey: reportKeys.classifiers(documentId),
    queryFn: () => api.get<Classifier[]>(classifiersPath(documentId)),
    retry: false,
  });

/** The items of the filters' classifiers (codes and names of the chips' lists). */
export const classifierItemsQuery = (classifierIds: readonly string[]) =>
  queryOptions({
    queryKey: reportKeys.items(classifierIds),
    queryFn: () => api.get<{ list: ClassifierItem[] }>(`/api/classifier-items?classifierIds=${enc(classifierIds.join(','))}`),
    enabled: classifierIds.length > 0,
    retry: false,
  });

/** The budget's sub-budgets of the scheme: the SUB_BUDGET chip's items. */
export const subBudgetsQuery = (budgetId: string, schemeId: string) =>
  queryOptions({
    queryKey: reportKeys.subBudgets(budgetId, schemeId),
    queryFn: () => api.get<SubBudget[]>(`/api/budget/${enc(budgetId)}/schema/${enc(schemeId)}/sub-budgets`),
    enabled: schemeId !== '',
    retry: false,
  });

/** The document's budgets: the comparison popover's choices. */
export const budgetsQuery = (documentId: string) =>
  queryOptions({ queryKey: reportKeys.budgets(documentId), queryFn: () => api.get<Budget[]>(`/api/document/${enc(documentId)}/budgets`) });

/** Remembers the report's state for this budget (a fire-and-forget write: the screen already shows it). */
export function useRememberReport(documentId: string, budgetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ type, settings }: { type: 'REPORT' | 'REPORT_COLUMNS'; settings: ReportViewSettings | ReportColumnsSettings }) =>
      api.put(`/api/user-settings`, { type, documentId, budgetId, settings }),
    onSuccess: (_answer, { type, settings }) => queryClient.setQueryData(reportKeys.userSetting(type, budgetId), { type, settings }),
  });
}

/** The REPORT_VIEW action log: the dashboard's recently visited reports. */
export function useLogReportView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UserActionLogInput) => api.post('/api/user-action-logs', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['user-action-logs'] }),
  });
}

export type StoredSettingChange =
  | { kind: 'create'; body: StoredSettingCreate }
  | { kind: 'update'; body: StoredSettingUpdate }
  | { kind: 'delete'; id: string }
  | { kind: 'order'; body: StoredSettingsOrder }
  | { kind: 'promote'; id: string };

function sendStoredSettingChange(change: StoredSettingChange): Promise<CommandResult> {
  switch (change.kind) {
    case 'create':
      return api.post<CommandResult>('/api/stored-settings', change.body);
    case 'update':
      return api.put<CommandResult>('/api/stored-settings', change.body);
    case 'delete':
      return api.delete<CommandResult>(`/api/stored-settings/${enc(change.id)}`);
    case 'order':
      return api.post<CommandResult>('/api/stored-settings/order', change.body);
    case 'promote':
      return api.post<CommandResult>(`/api/stored-settings/${enc(change.id)}/promote`, {});
  }
}

/** Every change of saved views and column sets; the menus' lists are read again afterwards. */
export function useStoredSettingChange(callbacks: MutationCallbacks<CommandResult, StoredSettingChange> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendStoredSettingChange,
    ...callbacks,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: ['report', 'stored-settings'] });
      await callbacks.onSuccess?.(...args);
    },
  });
}
