import { z } from 'zod';
import { fieldErrors } from '../errors';
import { LIMITS } from '../limits';
import { rawText } from '../text';
import { requiredText } from '../validation';

/**
 * Saved report views and column sets (spec 3, sections 3-7): what the report screen stores under a
 * name, personal (userId) or general (userId null). Every field is bounded: a stored setting is
 * screen state read back on every report visit, never a document of its own.
 */
export const STORED_SETTING_TYPES = ['REPORT', 'REPORT_COLUMNS'] as const;
export type StoredSettingType = (typeof STORED_SETTING_TYPES)[number];

/** Spec 3, section 9: a saved view's name. */
export const STORED_SETTING_NAME_MAX = 40;
/** A report has at most this many filters, columns or items per filter list. */
export const REPORT_FILTERS_MAX = 50;
export const REPORT_COLUMNS_MAX = 100;
export const REPORT_FILTER_ITEMS_MAX = 10_000;
/** A regular expression of a filter: a line a person types, not a program. */
export const REPORT_REGEX_MAX = 256;

export const REPORT_FILTER_TYPES = ['SUB_BUDGET', 'MASTER_CLASSIFIER', 'CLASSIFIER'] as const;
export const CALC_COLUMN_OPERATIONS = ['percent', 'minus', 'plus'] as const;

/** What a person typed (a search, a title): one line, kept as typed. */
const text = rawText(LIMITS.text);
/** An id or column key the report screen made. */
const id = rawText(100).min(1);
const itemIds = z.array(id).max(REPORT_FILTER_ITEMS_MAX);

/**
 * A filter's regular expression compiled as the report will use it (case-insensitive, unicode);
 * undefined when it does not compile. Compiling runs nothing, so it is safe on any input.
 */
export function compileReportRegex(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'iu');
  } catch {
    return undefined;
  }
}

/** The report filter of spec 3, section 3. */
export const reportFilterSchema = z.object({
  key: z.object({ id, type: z.enum(REPORT_FILTER_TYPES) }),
  name: text.optional(),
  enabled: z.boolean().default(true),
  items: itemIds.optional(),
  selectedItems: itemIds.optional(),
  visibleItems: itemIds.optional(),
  searchTerm: text.optional(),
  regex: rawText(REPORT_REGEX_MAX)
    .refine((source) => compileReportRegex(source) !== undefined, { message: 'validation.invalid' })
    .nullish(),
  comboSearch: text.nullish(),
  highlight: z.boolean().optional(),
  hierarchyDepth: z.int().min(0).max(20).nullish(),
  hierarchyMaxDepth: z.int().min(0).max(20).nullish(),
  visible: z.boolean().default(true),
});
export type ReportFilter = z.infer<typeof reportFilterSchema>;

/** A saved view (type REPORT). */
export const reportViewSettingsSchema = z.strictObject({
  rememberedSchemeId: id.nullish(),
  rememberedGroupingClassifierId: id.nullish(),
  filters: z.array(reportFilterSchema).max(REPORT_FILTERS_MAX).default([]),
  /** Filter changes not yet applied, as the screen keeps them: filters again. */
  filterChanges: z.array(reportFilterSchema).max(REPORT_FILTERS_MAX).default([]),
  /** Filter keys ('<type>:<id>') in the order the chips stand. */
  filtersOrder: z.array(id).max(REPORT_FILTERS_MAX).default([]),
});
export type ReportViewSettings = z.infer<typeof reportViewSettingsSchema>;

/** A period of a column: start month (ISO date of its first day) and duration in months. */
export const reportPeriodSchema = z.object({ start: z.iso.date(), duration: z.int().min(1).max(60) });

/** A past moment of the report (ISO time with its offset): the budget as it stood then (issue 12, point 7). */
export const reportMomentSchema = z.iso.datetime({ offset: true, message: 'validation.format' });

export const comparisonBudgetSchema = z.object({
  budgetId: z.uuid(),
  copy: z.boolean().default(false),
  period: reportPeriodSchema.nullish(),
  /** The budget as it stood at this moment; absent: as it stands. */
  asOf: reportMomentSchema.nullish(),
});

/** How sum columns expand into sub-columns (the report request's `expansion` takes the same values). */
export const REPORT_COLUMN_EXPANSIONS = ['none', 'quarterly', 'monthly'] as const;

export const calcColumnSchema = z.object({
  id,
  firstOperand: id,
  secondOperand: id,
  operation: z.enum(CALC_COLUMN_OPERATIONS).default('percent'),
});

/**
 * A saved column set (type REPORT_COLUMNS): everything the columns are, so choosing it gives the
 * same columns. The spec's keys (reportColumns, comparisonBudgetIds, calcColumns) and, beyond them,
 * the base column's period, the quarterly or monthly expansion and a sum budget's component
 * columns; each added key optional, so payloads stored before them read as before (no period, no
 * expansion, no component columns).
 */
export const reportColumnsSettingsSchema = z.strictObject({
  /** Column keys in the order shown (the base budget's column first). */
  reportColumns: z.array(id).max(REPORT_COLUMNS_MAX).default([]),
  comparisonBudgetIds: z.array(comparisonBudgetSchema).max(REPORT_COLUMNS_MAX).default([]),
  calcColumns: z.array(calcColumnSchema).max(REPORT_COLUMNS_MAX).default([]),
  basePeriod: reportPeriodSchema.nullish(),
  expansion: z.enum(REPORT_COLUMN_EXPANSIONS, { message: 'validation.allowedValues' }).optional(),
  componentColumns: z.boolean().optional(),
});
export type ReportColumnsSettings = z.infer<typeof reportColumnsSettingsSchema>;

export const STORED_SETTINGS_SCHEMAS = { REPORT: reportViewSettingsSchema, REPORT_COLUMNS: reportColumnsSettingsSchema } as const;
export type StoredSettings = ReportViewSettings | ReportColumnsSettings;

const name = requiredText(STORED_SETTING_NAME_MAX);
/** Null or absent: a view of the whole document, offered in each of its budgets (a copied document's views are). */
const budgetId = z.uuid().nullish();

export const storedSettingCreateSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('REPORT'), name, documentId: z.uuid(), budgetId, settings: reportViewSettingsSchema }),
  z.object({ type: z.literal('REPORT_COLUMNS'), name, documentId: z.uuid(), budgetId, settings: reportColumnsSettingsSchema }),
]);
export type StoredSettingCreate = z.infer<typeof storedSettingCreateSchema>;

/** PUT /api/stored-settings: the settings are checked against the setting's own type. */
export const storedSettingUpdateSchema = z.object({
  settingId: z.uuid(),
  documentId: z.uuid(),
  name,
  settings: z.union([reportViewSettingsSchema, reportColumnsSettingsSchema]),
});
export type StoredSettingUpdate = z.infer<typeof storedSettingUpdateSchema>;

export const storedSettingsQuerySchema = z.object({ documentId: z.uuid(), budgetId: z.uuid().optional(), type: z.enum(STORED_SETTING_TYPES) });

/** POST /api/stored-settings/order: userId null orders the general ones, the caller's own id their personal ones. */
export const storedSettingsOrderSchema = z.object({
  userId: z.uuid().nullable(),
  documentId: z.uuid(),
  budgetId,
  organizationId: z.uuid(),
  type: z.enum(STORED_SETTING_TYPES),
  order: z.array(z.uuid()).min(1).max(1000),
});
export type StoredSettingsOrder = z.infer<typeof storedSettingsOrderSchema>;

export const storedSettingSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  type: z.enum(STORED_SETTING_TYPES),
  documentId: z.uuid(),
  budgetId: z.uuid().nullable(),
  organizationId: z.uuid(),
  /** Null: a general setting, seen by everyone who reads the budget. */
  userId: z.uuid().nullable(),
  order: z.int(),
  settings: z.union([reportViewSettingsSchema, reportColumnsSettingsSchema]),
});
export type StoredSetting = z.infer<typeof storedSettingSchema>;

// ---- user action logs (spec 1, section 3; spec 3, section 3) ----

export const USER_ACTION_TYPES = ['REPORT_VIEW'] as const;
/** Spec 1, section 9: the dashboard shows at most 10 recent log rows. */
export const RECENT_ACTIONS_MAX = 10;

export const userActionLogInputSchema = z.object({ actionType: z.enum(USER_ACTION_TYPES), documentId: z.uuid(), budgetId: z.uuid() });
export type UserActionLogInput = z.infer<typeof userActionLogInputSchema>;

export const userActionLogSchema = z.object({
  actionType: z.enum(USER_ACTION_TYPES),
  documentId: z.uuid(),
  documentName: z.string(),
  budgetId: z.uuid(),
  budgetName: z.string(),
  visitedAt: z.iso.datetime({ offset: true }),
});
export type UserActionLog = z.infer<typeof userActionLogSchema>;

// ---- user settings by type (spec 1, section 3; spec 3, section 3) ----

/** The ERP records pane's table (spec 3, section 3: ERP table settings). */
export const erpTableSettingsSchema = z.strictObject({
  selectedColumns: z.array(text).max(REPORT_COLUMNS_MAX).default([]),
  showEmptyColumns: z.boolean().default(false),
  showErpRows: z.boolean().default(false),
  selectedViewTitle: text.nullish(),
});

/**
 * What each user setting type holds, and where: the report's remembered scheme, grouping
 * classifier and filters (REPORT), its columns (REPORT_COLUMNS) and the ERP pane (BUDGET_ERP) per
 * budget; the sub-budgets tab's scheme (BUDGET_SCHEME) per budget or document; the remembered
 * document (OCCUPATION_DOCUMENT) per occupation, with no document or budget.
 */
export const USER_SETTINGS_BY_TYPE = {
  REPORT: { settings: reportViewSettingsSchema, scope: 'budget' },
  REPORT_COLUMNS: { settings: reportColumnsSettingsSchema, scope: 'budget' },
  BUDGET_ERP: { settings: erpTableSettingsSchema, scope: 'budget' },
  // Schemes are the document's: remembered per budget (the sub-budgets tab) or for the whole document.
  BUDGET_SCHEME: { settings: z.strictObject({ schemeId: z.uuid().nullable() }), scope: 'document' },
  OCCUPATION_DOCUMENT: { settings: z.strictObject({ rememberedDocumentId: z.uuid().nullable() }), scope: 'occupation' },
} as const;

/** Settings checked against their type's schema (defaults filled in); what does not fit is refused field by field. */
export function settingsOfSchema<T>(schema: z.ZodType<T>, settings: unknown): T {
  const parsed = schema.safeParse(settings);
  if (parsed.success) return parsed.data;
  const rules = parsed.error.issues.map((issue) => ({ field: ['settings', ...issue.path].join('.'), message: issue.message }));
  throw fieldErrors('SCHEMA_VALIDATION_ERROR', rules);
}
