import { z } from 'zod';
import { amountSchema } from '../decimal';
import { LIMITS } from '../limits';
import { rawText, uncappedSingleLineText } from '../text';
import { requiredText, uuid } from '../validation';

/**
 * Records (budget lines), their history and imports (spec 3, sections 3, 4, 5 and 7; issue 11).
 *
 * Amounts are canonical decimal strings (shared/src/decimal.ts). `classifiers` maps a classifier
 * id to an item code in answers; in requests a key may be the classifier's id or its field name.
 * `factors.months` holds one amount per month of the document period (12 per year of its
 * duration), or is null when the record has no monthly split; with a split, `amount` is the sum
 * of the months.
 */

export const MONTHS_PER_YEAR = 12;

export const RECORD_LIMITS = {
  /** Records one bulk delete or bulk edit may name. */
  bulkMax: 10_000,
  /** Rows of one import (file, other budget or ERP job). */
  importRowsMax: 100_000,
  /** Monthly factors: 12 per year of the longest document period (5 years). */
  monthsMax: 60,
} as const;

/** An item code as records carry it (CLASSIFIER_CODE_LENGTH.max; spec 2, section 9). */
const ITEM_CODE_MAX = 40;

/** Classifier id or field name → item code; null clears an optional classifier. */
export const recordClassifiersInputSchema = z.record(rawText(LIMITS.text).min(1, { message: 'validation.required' }), requiredText(ITEM_CODE_MAX).nullable());

export const recordFactorsSchema = z.object({
  months: z.array(amountSchema).min(1, { message: 'validation.required' }).max(RECORD_LIMITS.monthsMax, { message: 'validation.max' }).nullable(),
});

/** A record's name: its length is the record rules' to refuse, with RECORD_NAME_TOO_LONG (spec 3, section 8). */
const recordNameSchema = uncappedSingleLineText().trim().min(1, { message: 'validation.required' });

/**
 * POST .../record and PUT .../record/{id}. Either an amount or monthly factors (or both, when
 * they agree); the server checks the month count against the document period.
 */
export const recordInputSchema = z.object({
  name: recordNameSchema,
  amount: amountSchema.optional(),
  factors: recordFactorsSchema.optional(),
  classifiers: recordClassifiersInputSchema.default({}),
  /** Set when the record is made as a copy of another (duplicate): its history says so. */
  duplicatedFrom: uuid.optional(),
});
export type RecordInput = z.infer<typeof recordInputSchema>;

export const recordSchema = z.object({
  id: z.string(),
  budgetId: z.string(),
  documentId: z.string(),
  name: z.string(),
  amount: z.string(),
  /** Classifier id → item code. */
  classifiers: z.record(z.string(), z.string()),
  factors: z.object({ months: z.array(z.string()).nullable() }),
  extra: z.object({ promoted: z.boolean() }),
  hasComments: z.boolean(),
  hasCommentAttachments: z.boolean(),
  createdAt: z.string(),
  updated_at: z.string(),
  /** Who changed it last. */
  user_name: z.string(),
});
export type BudgetRecord = z.infer<typeof recordSchema>;

/** A record as one scheme sees it: the sub-budget it falls in, or '-2' when it fits none (GET .../schema/{s}/records). */
export const schemeRecordSchema = recordSchema.extend({ subBudgetId: z.string() });
/** A record with the sub-budget it falls in per scheme id (GET .../schema-records?schemaIds=). */
export const schemesRecordSchema = recordSchema.extend({ subBudgetIds: z.record(z.string(), z.string()) });

/** One stored event of a record's streams, for auditors (GET .../record/{id}/events). */
export const recordStoredEventSchema = z.object({
  eventId: z.string(),
  streamName: z.string(),
  revision: z.string(),
  position: z.string(),
  type: z.string(),
  data: z.unknown(),
  metadata: z.object({
    correlationId: z.string(),
    causationId: z.string().nullable(),
    userId: z.string().nullable(),
    userName: z.string().nullable(),
    occupationId: z.string().nullable(),
    occupationName: z.string().nullable(),
    occurredAt: z.string(),
  }),
  storedAt: z.string(),
});
export type RecordStoredEvent = z.infer<typeof recordStoredEventSchema>;

export const recordIdParamsSchema = z.object({ budgetId: uuid, subBudgetId: uuid, id: uuid });
export const subBudgetRecordsParamsSchema = z.object({ budgetId: uuid, subBudgetId: uuid });

export const recordsDeleteSchema = z.object({
  recordIds: z.array(uuid).min(1, { message: 'validation.required' }).max(RECORD_LIMITS.bulkMax, { message: 'validation.max' }),
});

/** One field for many records (spec 3, bulk edit): the name, the amount, or one classifier's value. */
export const recordsBulkEditSchema = z.object({
  recordIds: z.array(uuid).min(1, { message: 'validation.required' }).max(RECORD_LIMITS.bulkMax, { message: 'validation.max' }),
  updates: z
    .object({
      name: recordNameSchema.optional(),
      amount: amountSchema.optional(),
      classifiers: recordClassifiersInputSchema.optional(),
    })
    .refine((updates) => Object.values(updates).filter((value) => value !== undefined).length === 1, { message: 'validation.required' }),
});

/** A version of a record in its history (GET .../record/{id}/history), oldest first. */
export const recordHistoryEntrySchema = z.object({
  /** The event that made this version: a revert names it. */
  eventId: z.string(),
  version: z.number(),
  kind: z.enum(['CREATED', 'IMPORTED', 'UPDATED', 'PROMOTED', 'DELETED', 'RESTORED', 'REVERTED']),
  /** Fields that differ from the version before ('name', 'amount', 'factors', 'extra.promoted', 'classifiers.<id>'). */
  changedFields: z.array(z.string()),
  record: recordSchema.omit({ hasComments: true, hasCommentAttachments: true }).nullable(),
  changedBy: z.object({ userId: z.string().nullable(), userName: z.string(), occupationId: z.string().nullable(), occupationName: z.string().nullable() }),
  changedAt: z.string(),
  /** Set on a version that undid an earlier change. */
  revertedEventId: z.string().nullable(),
});
export type RecordHistoryEntry = z.infer<typeof recordHistoryEntrySchema>;

/** POST .../record/{id}/revert: undo the change made by one event of the history, as a new event. */
export const recordRevertSchema = z.object({ eventId: uuid });

// ---- imports -------------------------------------------------------------------------------

export const IMPORT_STATUSES = ['UNPROCESSED', 'PROCESSING', 'SUCCESS', 'ERROR'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

const importCell = z.union([z.string(), z.number()]).nullable().optional();

/**
 * One row as a file or another budget gives it: nothing is trusted yet. Every rule of spec 3
 * section 5 is checked by `validateImportRows` (shared, so the browser shows the same errors
 * before sending), and again by the import job.
 */
export const importRowSchema = z.object({
  name: uncappedSingleLineText().nullable().optional(),
  amount: importCell,
  /** Monthly values over the document period; missing or empty months count as none. */
  months: z.array(importCell).max(RECORD_LIMITS.monthsMax).nullable().optional(),
  /**
   * An ERP row's calendar month (1-12) and year (spec 3, section 3: the keys month and year): the
   * amount is that month's, placed in the document period; such a row carries no `months`.
   */
  month: importCell,
  year: importCell,
  /** Classifier field name (or id) → item code. */
  classifiers: z.record(uncappedSingleLineText(), z.union([uncappedSingleLineText(), z.number()]).nullable()).default({}),
});
export type ImportRow = z.infer<typeof importRowSchema>;

/** The gzip-compressed JSON body of POST api/budget/{b}[/sub-budget/{s}]/records (query originResourceName). */
export const importBodySchema = z.object({
  list: z.array(importRowSchema).min(1, { message: 'validation.required' }).max(RECORD_LIMITS.importRowsMax, { message: 'validation.max' }),
  /** The client's id of this attempt: sending it again answers the same import, never a second one. */
  importId: uuid.optional(),
});

export const importQuerySchema = z.object({ originResourceName: rawText(LIMITS.text).default('') });

/** A rule one import row breaks (message keys of spec 3 section 5). */
export const recordImportRowErrorSchema = z.object({
  message: z.string(),
  critical: z.boolean(),
  /** The classifier field name, 'name', 'amount' or 'months.<n>'. */
  fieldName: z.string().nullable(),
});
export type RecordImportRowError = z.infer<typeof recordImportRowErrorSchema>;

export const importResultSchema = z.object({ recordsInserted: z.number(), totalErrorsCount: z.number(), criticalErrorsCount: z.number() });

/** GET .../import/status and /import/report. */
export const importStatusSchema = z.object({
  id: z.string(),
  status: z.enum(IMPORT_STATUSES),
  result: importResultSchema.nullable(),
  extra: z.object({ originResourceName: z.string() }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ImportStatusAnswer = z.infer<typeof importStatusSchema>;

/** GET .../import/error: the rows that broke a rule, with their errors keyed by message key. */
export const importErrorReportSchema = z.object({
  list: z.array(
    z.object({
      rowData: z.record(z.string(), z.unknown()),
      errors: z.record(z.string(), z.object({ critical: z.boolean(), fieldName: z.string().nullable() })),
      keys: z.object({ month: z.number().nullable(), year: z.number().nullable(), amount: z.string().nullable() }),
    }),
  ),
  totalErrorsCount: z.number(),
});

/**
 * POST .../records/preview (beyond the spec): what the import would change, before it is sent.
 * Per scheme of the budget, the sub-budgets that would get rows ('-2': rows that fit none), with
 * their records and totals before → after; amounts are exact decimal strings.
 */
export const importPreviewSchema = z.object({
  rows: z.object({ total: z.number(), importable: z.number(), critical: z.number() }),
  total: z.object({ before: z.string(), after: z.string() }),
  schemes: z.array(
    z.object({
      schemeId: z.string(),
      name: z.string(),
      subBudgets: z.array(
        z.object({
          subBudgetId: z.string(),
          name: z.string().nullable(),
          recordsBefore: z.number(),
          recordsAdded: z.number(),
          totalBefore: z.string(),
          totalAfter: z.string(),
        }),
      ),
    }),
  ),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

/** POST answers: the import's id and its job's first status. */
export const importStartedSchema = z.object({ id: z.string(), status: z.enum(IMPORT_STATUSES) });
