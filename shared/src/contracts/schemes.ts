import { z } from 'zod';
import { LIMITS } from '../limits';
import { rawText, uncappedSingleLineText } from '../text';
import { optionalTextArea, orderValue, requiredText, uuid } from '../validation';

/** Schemes (schemas) and sub-budgets of a document (spec 2, sections 3, 5 and 7). */

export const SCHEME_CLASSIFIER_TYPES = ['MAIN', 'SECONDARY'] as const;
export type SchemeClassifierType = (typeof SCHEME_CLASSIFIER_TYPES)[number];

/** Letters, digits and underscore, not starting with a digit (spec 2, section 5). */
export const SCHEME_FIELD_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A new scheme's technical name from its name: spaces become underscores, every other character
 * that is not a letter, digit or underscore goes, and the result is lower-cased (spec 2, section 5).
 * Accented letters are removed too (a-z only), so the result always matches SCHEME_FIELD_NAME_PATTERN
 * unless it is empty or starts with a digit.
 */
export function deriveFieldName(name: string): string {
  return name
    .replace(/ /g, '_')
    .replace(/[^A-Za-z0-9_]/g, '')
    .toLowerCase();
}

export const schemeClassifierSchema = z.object({ classifierId: uuid, type: z.enum(SCHEME_CLASSIFIER_TYPES, { message: 'validation.format' }) });
export type SchemeClassifier = z.infer<typeof schemeClassifierSchema>;

export const schemeInputSchema = z.object({
  name: requiredText(),
  fieldName: requiredText().pipe(z.string().regex(SCHEME_FIELD_NAME_PATTERN, { message: 'validation.fieldName' })),
  description: optionalTextArea().default(''),
  displayOrder: orderValue.optional(),
  classifierList: z
    .array(schemeClassifierSchema)
    .default([])
    .refine((list) => new Set(list.map((entry) => entry.classifierId)).size === list.length, { message: 'validation.unique' })
    .refine((list) => list.length === 0 || list.some((entry) => entry.type === 'MAIN'), { message: 'validation.mainClassifierRequired' }),
});
export type SchemeInput = z.infer<typeof schemeInputSchema>;

export const schemeSchema = z.object({
  id: z.string(),
  documentId: z.string(),
  organizationId: z.string(),
  name: z.string(),
  fieldName: z.string(),
  description: z.string(),
  displayOrder: z.number(),
  classifierList: z.array(schemeClassifierSchema),
  subBudgetsCount: z.number(),
});
export type Scheme = z.infer<typeof schemeSchema>;

export const schemeDisplayOrderSchema = z.array(z.object({ id: uuid, displayOrder: orderValue })).min(1, { message: 'validation.required' });

/** An item code's maximum length (CLASSIFIER_CODE_LENGTH.max; spec 2, section 9). */
const ITEM_CODE_MAX = 40;

/** Classifier id (or the classifier's field name) → item code (spec 2, section 3). */
export const subBudgetClassifiersSchema = z.record(rawText(LIMITS.text).min(1, { message: 'validation.required' }), requiredText(ITEM_CODE_MAX));
/** Classifier id → item codes the sub-budget's records may use. */
export const classifierPreselectionsSchema = z.record(z.uuid({ message: 'validation.format' }), z.array(requiredText(ITEM_CODE_MAX)));
export type ClassifierPreselections = z.infer<typeof classifierPreselectionsSchema>;

export const subBudgetInputSchema = z.object({
  name: requiredText(),
  classifiers: subBudgetClassifiersSchema,
});
export type SubBudgetInput = z.infer<typeof subBudgetInputSchema>;

export const subBudgetSchema = z.object({
  id: z.string(),
  name: z.string(),
  schemaId: z.string(),
  documentId: z.string(),
  budgetId: z.string().nullable(),
  classifiers: z.record(z.string(), z.string()),
  pinned: z.boolean(),
  hasRecords: z.boolean(),
  recordsCount: z.number(),
  attachmentsCount: z.number(),
  hasComments: z.boolean(),
  /** Seen from a budget: the caller's grants on the sub-budget there (a department may update one sub-budget of a budget). */
  permissions: z.object({ read: z.boolean(), update: z.boolean() }).optional(),
});
export type SubBudget = z.infer<typeof subBudgetSchema>;

export const deleteSubBudgetsSchema = z.object({ ids: z.array(uuid).min(1, { message: 'validation.required' }) });

/** PUT api/budget/{budgetId}/schema/{schemaId}/settings; unpinning a sub-budget with records needs `confirmed`. */
export const schemeBudgetSettingsSchema = z.object({ pinned: z.array(uuid), confirmed: z.boolean().optional() });

export const preselectionsInputSchema = z.object({ preselections: classifierPreselectionsSchema });
export const preselectionsSchema = z.object({ subBudgetId: z.string(), preselections: z.record(z.string(), z.array(z.string())) });

export const SUB_BUDGET_IMPORT_TYPES = ['SUB_BUDGETS_WITH_PRESELECTIONS', 'PRESELECTIONS_ONLY'] as const;
/**
 * One import row. Rows are checked one by one on the server; names longer than the text-field
 * maximum are cut, not refused. In PRESELECTIONS_ONLY the row finds its sub-budget by `id` or
 * by its classifier values.
 */
export const subBudgetImportRowSchema = z.object({
  id: uncappedSingleLineText().optional(),
  name: uncappedSingleLineText().default(''),
  classifiers: z.record(uncappedSingleLineText(), uncappedSingleLineText().nullable()).default({}),
  preselections: z.record(uncappedSingleLineText(), z.array(uncappedSingleLineText())).default({}),
});
export type SubBudgetImportRow = z.infer<typeof subBudgetImportRowSchema>;
export const subBudgetImportSchema = z.object({
  importType: z.enum(SUB_BUDGET_IMPORT_TYPES, { message: 'validation.format' }),
  list: z.array(subBudgetImportRowSchema).min(1, { message: 'validation.required' }).max(10_000),
  /** The client's id of this import attempt: a retry with it answers the first result (`alreadyDone`). */
  importId: uuid.optional(),
});
export const subBudgetImportRowErrorSchema = z.object({ row: z.number(), errors: z.array(z.object({ path: z.string(), message: z.string() })) });
export type SubBudgetImportRowError = z.infer<typeof subBudgetImportRowErrorSchema>;
export const subBudgetImportResultSchema = z.object({ imported: z.number(), position: z.string().nullable(), alreadyDone: z.boolean().optional() });

export const subBudgetCountsSchema = z.object({ total: z.number(), pinnedByBudget: z.record(z.string(), z.number()) });
export const hasRecordsSchema = z.object({ hasRecords: z.boolean(), recordsCount: z.number() });
