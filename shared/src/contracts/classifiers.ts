import { z } from 'zod';
import { rawText } from '../text';
import { optionalTextArea, orderValue, requiredText, uuid } from '../validation';

/** Classifiers and classifier items of a document (spec 2, sections 3, 5, 7 and 9). */

/** Code length bounds (spec 2, section 9): 1 to 40, and the minimum at most 20 while no code exists. */
export const CLASSIFIER_CODE_LENGTH = { min: 1, max: 40, defaultMinUpperBound: 20 } as const;

/**
 * Code types by ranking: a higher ranking accepts more characters. A type may be lowered only
 * while every existing code fits it (spec 2, section 5: typeRanking, number once items do not fit).
 */
export const CODE_TYPES = {
  Number: { ranking: 1, typeRegex: '^[0-9]+$', regexFlag: '' },
  Code: { ranking: 2, typeRegex: '^[A-Za-z0-9._\\-/]+$', regexFlag: '' },
  International: { ranking: 3, typeRegex: '^[\\p{L}\\p{N}._\\-/ ]+$', regexFlag: 'u' },
} as const;
export type CodeTypeName = keyof typeof CODE_TYPES;
export const CODE_TYPE_NAMES = Object.keys(CODE_TYPES) as [CodeTypeName, ...CodeTypeName[]];

export function codeTypePattern(typeName: CodeTypeName): RegExp {
  const type = CODE_TYPES[typeName];
  return new RegExp(type.typeRegex, type.regexFlag);
}

export const DISPLAY_MODES = ['CODE_AND_NAME', 'CODE', 'NAME', 'CLASSIFIER_NAME'] as const;
export type DisplayMode = (typeof DISPLAY_MODES)[number];

/** Letters, digits and underscore, not starting with a digit; ASCII only, so no accents (spec 2, section 5). */
export const CLASSIFIER_FIELD_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const codeSettingsInputSchema = z.object({
  typeName: z.enum(CODE_TYPE_NAMES, { message: 'validation.format' }),
  minLength: z.number().int().min(CLASSIFIER_CODE_LENGTH.min, { message: 'validation.min' }).max(CLASSIFIER_CODE_LENGTH.max, { message: 'validation.max' }),
  maxLength: z.number().int().min(CLASSIFIER_CODE_LENGTH.min, { message: 'validation.min' }).max(CLASSIFIER_CODE_LENGTH.max, { message: 'validation.max' }),
  hierarchical: z.boolean().default(false),
});
export type CodeSettingsInput = z.infer<typeof codeSettingsInputSchema>;

export interface CodeSettings extends CodeSettingsInput {
  typeRegex: string;
  regexFlag: string;
  ranking: number;
}

const classifierFields = {
  name: requiredText(),
  itemName: requiredText(),
  fieldName: requiredText().pipe(z.string().regex(CLASSIFIER_FIELD_NAME_PATTERN, { message: 'validation.fieldName' })),
  description: optionalTextArea().default(''),
  required: z.boolean().default(false),
  itemCanChangeSign: z.boolean().default(false),
  primary: z.boolean().default(false),
  primaryGroupedById: uuid.nullable().default(null),
  displayOrder: orderValue.optional(),
  displayMode: z.enum(DISPLAY_MODES, { message: 'validation.format' }).default('CODE_AND_NAME'),
  codeSettings: codeSettingsInputSchema,
};

/** POST api/document/{documentId}/classifier. Grouping (groupingId) can be chosen only on create. */
export const classifierCreateSchema = z.object({ ...classifierFields, groupingId: uuid.nullable().default(null) });
export type ClassifierCreateInput = z.infer<typeof classifierCreateSchema>;

/** PUT api/classifier/{id}: the same fields but grouping. */
export const classifierUpdateSchema = z.object(classifierFields);
export type ClassifierUpdateInput = z.infer<typeof classifierUpdateSchema>;

export const classifierOrderSchema = z.object({
  list: z.array(z.object({ id: uuid, displayOrder: orderValue })).max(10_000),
});

export const classifierSchema = z.object({
  id: z.string(),
  documentId: z.string(),
  name: z.string(),
  itemName: z.string(),
  fieldName: z.string(),
  description: z.string(),
  required: z.boolean(),
  itemCanChangeSign: z.boolean(),
  primary: z.boolean(),
  /** The classifier whose items this one groups; null for a non-grouping classifier. */
  groupingId: z.string().nullable(),
  /** Grouping classifiers that group this one's items. */
  groupedByIds: z.array(z.string()),
  primaryGroupedById: z.string().nullable(),
  displayOrder: z.number(),
  displayMode: z.enum(DISPLAY_MODES),
  isInUseSchema: z.boolean(),
  /** The document's master classifier. */
  master: z.boolean(),
  codeSettings: z.object({
    typeName: z.enum(CODE_TYPE_NAMES),
    typeRegex: z.string(),
    regexFlag: z.string(),
    minLength: z.number(),
    maxLength: z.number(),
    hierarchical: z.boolean(),
    ranking: z.number(),
  }),
  itemsCount: z.number().optional(),
});
export type Classifier = z.infer<typeof classifierSchema>;

// ---- items ------------------------------------------------------------------

export const SIGNS = [1, -1] as const;
export const groupedByRefSchema = z.object({ classifierId: uuid, itemId: uuid });
export type GroupedByRef = z.infer<typeof groupedByRefSchema>;

const signSchema = z
  .union([z.literal(1), z.literal(-1)])
  .nullable()
  .default(null);

/** POST api/classifier/{classifierId}/item and PUT .../item/{id}. */
export const classifierItemInputSchema = z.object({
  code: requiredText(CLASSIFIER_CODE_LENGTH.max),
  name: requiredText(),
  description: optionalTextArea().default(''),
  sign: signSchema,
  unselectable: z.boolean().default(false),
  groupedBy: z.array(groupedByRefSchema).default([]),
});
export type ClassifierItemInput = z.infer<typeof classifierItemInputSchema>;

/** PUT api/classifier/{classifierId}/items: bulk edit; only the given fields change, never the code or name. */
export const classifierItemsBulkEditSchema = z.object({
  itemIds: z.array(uuid).min(1, { message: 'validation.required' }),
  description: optionalTextArea().optional(),
  sign: z
    .union([z.literal(1), z.literal(-1)])
    .nullable()
    .optional(),
  unselectable: z.boolean().optional(),
  /** Replaces the reference to each listed grouping classifier; itemId null removes it. */
  groupedBy: z.array(z.object({ classifierId: uuid, itemId: uuid.nullable() })).optional(),
});
export type ClassifierItemsBulkEdit = z.infer<typeof classifierItemsBulkEditSchema>;

export const classifierItemsDeleteSchema = z.object({ itemIds: z.array(uuid).min(1, { message: 'validation.required' }) });

/** One import row as the web sends it after validation (raw values; the server validates again). */
export const classifierImportRowSchema = z.object({
  code: z.unknown().optional(),
  name: z.unknown().optional(),
  classifierId: rawText().optional(),
  description: z.unknown().optional(),
  unselectable: z.unknown().optional(),
  sign: z.unknown().optional(),
  /** Grouping classifier id → item code (case-insensitive), or a list of {classifierId, itemId|code}. */
  groupedBy: z.unknown().optional(),
});
export type ClassifierImportRow = z.infer<typeof classifierImportRowSchema>;

/**
 * POST api/classifier/{classifierId}/items. `loose`: import the valid rows among those sent, skip
 * the rest. `importId`: the client's id of this import attempt; a retry with the same id answers
 * the first result (`alreadyDone`) and appends nothing.
 */
export const classifierImportSchema = z.object({
  documentId: uuid.optional(),
  classifierId: uuid.optional(),
  importId: uuid.optional(),
  loose: z.boolean().default(false),
  items: z.array(classifierImportRowSchema).min(1, { message: 'validation.required' }).max(100_000),
});

export const importRowErrorSchema = z.object({ field: z.string(), message: z.string() });
export type ImportRowError = z.infer<typeof importRowErrorSchema>;

/** Result of POST .../items/validate: every row with its values and errors. */
export const importValidationSchema = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.object({ row: z.number(), values: z.record(z.string(), z.unknown()), errors: z.array(importRowErrorSchema) })),
  valid: z.boolean(),
});
export type ImportValidation = z.infer<typeof importValidationSchema>;

export const classifierImportResultSchema = z.object({
  id: z.string(),
  position: z.string().nullable(),
  imported: z.number(),
  skipped: z.array(z.object({ row: z.number(), errors: z.array(importRowErrorSchema) })),
  /** The import id had already been imported: this is that import's result, nothing was added now. */
  alreadyDone: z.boolean().optional(),
});

export const classifierItemSchema = z.object({
  id: z.string(),
  classifierId: z.string(),
  code: z.string(),
  name: z.string(),
  description: z.string(),
  sign: z.number().nullable(),
  unselectable: z.boolean(),
  groupedBy: z.array(z.object({ classifierId: z.string(), id: z.string(), code: z.string(), sign: z.number().nullable() })),
  isInUseSubBudgets: z.boolean().optional(),
  isInUseRecords: z.boolean().optional(),
  isInUseGroupings: z.boolean().optional(),
});
export type ClassifierItem = z.infer<typeof classifierItemSchema>;
