import { z } from 'zod';
import { LIMITS } from '../limits';
import { RESOURCE_STATUS_RULE_TYPES } from './resource-statuses';
import { rawText, singleLineText } from '../text';
import { optionalTextArea, orderValue, requiredText } from '../validation';

/**
 * Budgets of a document (spec 2, sections 2 to 9; spec 1, section 7 for the admin calls).
 * The gateway validates with these schemas and the web's forms reuse them.
 */
export const BUDGET_LIMITS = {
  nameMax: 100,
  /** At most 3 tags per budget (spec 2, section 9). */
  tagsMax: 3,
  /** The length of one tag is not given by the spec: a text field's length. */
  tagMaxLength: LIMITS.text,
  urlMax: LIMITS.url,
  /** Breadcrumb and budget display truncation (40 characters plus an ellipsis). */
  displayTruncate: 40,
  /** GET api/admin/budgets?inclusionList=: up to 1,000 comma-separated ids. */
  inclusionListMax: 37 * 1_000,
} as const;

export const BUDGET_TYPE_VALUES = ['COMMON', 'SUM_BUDGET', 'MONITORING'] as const;
/** The sum type is also written SUM (spec 2, section 3): accepted on input, answered as SUM_BUDGET. */
export const budgetTypeSchema = z.preprocess(
  (value) => (value === 'SUM' ? 'SUM_BUDGET' : value),
  z.enum(BUDGET_TYPE_VALUES, { message: 'validation.allowedValues' }),
);
export type BudgetTypeValue = (typeof BUDGET_TYPE_VALUES)[number];

const id = z.uuid({ message: 'validation.format' });
const emptyAsNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);
/** Gateway and ERP URLs: valid http(s) URLs of at most 2048 characters; empty clears. */
const urlField = z.preprocess(
  emptyAsNull,
  singleLineText(BUDGET_LIMITS.urlMax)
    .pipe(z.url({ protocol: /^https?$/, message: 'validation.format' }))
    .nullable(),
);

export const budgetTagsListSchema = z.array(requiredText(BUDGET_LIMITS.tagMaxLength)).max(BUDGET_LIMITS.tagsMax, { message: 'validation.max' });

/** Per matching scheme (GET api/budget/{id}/copy-schemes) what to copy from the source budget. */
export const budgetCopySchemeOptionSchema = z.object({
  schemeId: id,
  /** Pinned sub-budgets with their preselections; not for monitoring budgets. */
  copyPinnedPreselections: z.boolean().default(false),
  copySubBudgetPermissions: z.boolean().default(false),
  /** Not for monitoring budgets. */
  copyComments: z.boolean().default(false),
});

/** Copy from an existing budget (new COMMON or MONITORING budgets only). */
export const budgetCopySchema = z.object({
  sourceBudgetId: z.uuid({ message: 'validation.required' }),
  /** Needs USER_ADMIN. */
  copyPermissions: z.boolean().default(false),
  schemes: z.array(budgetCopySchemeOptionSchema).default([]),
});
export type BudgetCopyInput = z.input<typeof budgetCopySchema>;

/**
 * The parts a budget copy can take: the budget's permissions, and per matching scheme the pinned
 * sub-budgets, the sub-budget permissions and the comments. GET api/budget-copy/parts lists those
 * this version can carry out (the others arrive with the permissions and comments features).
 */
export const BUDGET_COPY_PARTS = ['permissions', 'pinnedPreselections', 'subBudgetPermissions', 'comments'] as const;
export type BudgetCopyPart = (typeof BUDGET_COPY_PARTS)[number];
export const budgetCopyPartsSchema = z.object({ parts: z.array(z.enum(BUDGET_COPY_PARTS)) });

/**
 * Create (POST api/document/{documentId}/budget) and edit (PUT api/budget/{id}).
 * `type` is fixed after creation: on edit it may be omitted, and a different one is refused
 * (BUDGET_TYPE_IMMUTABLE). gwUrl and erpUrl are for monitoring budgets and IS_ADMIN only;
 * omitted means unchanged. `tags` is read on create only (edits go through PUT .../tags).
 * `copy` is read on create only.
 */
export const budgetInputSchema = z.object({
  id: id.optional(),
  documentId: id.optional(),
  type: budgetTypeSchema.optional(),
  name: requiredText(BUDGET_LIMITS.nameMax),
  description: optionalTextArea().default(''),
  tags: budgetTagsListSchema.default([]),
  resourceStatusId: id.nullable().default(null),
  sumBudgetComponentIds: z.array(id).default([]),
  gwUrl: urlField.optional(),
  erpUrl: urlField.optional(),
  copy: budgetCopySchema.nullable().optional(),
});
export type BudgetInput = z.input<typeof budgetInputSchema>;

/** POST: the type is required. */
export const budgetCreateSchema = budgetInputSchema.extend({ type: budgetTypeSchema });

export const budgetTagsSchema = z.object({ tags: budgetTagsListSchema });
export const budgetSyncSchema = z.object({ enabled: z.boolean({ message: 'validation.required' }) });
/** Order values count down from the list length: the highest comes first. */
export const budgetOrderSchema = z.object({
  documentId: id.optional(),
  list: z.array(z.object({ id, order: orderValue })).min(1, { message: 'validation.required' }),
});

/**
 * What the caller may do with a budget: its grants (read, update) and the rules of the document's
 * and the budget's statuses in force for the caller (READ_DISABLED: the name is plain text and the
 * budget cannot be opened; RESOURCE_WRITE_DISABLED: its data is locked; ...).
 */
export const budgetPermissionsSchema = z.object({
  read: z.boolean(),
  update: z.boolean(),
  restrictions: z.array(z.enum(RESOURCE_STATUS_RULE_TYPES)).default([]),
});

/** A budget as every caller sees it: no API key, gateway URL, ERP URL or sync flag. */
export const budgetSchema = z.object({
  id: z.string(),
  documentId: z.string(),
  organizationId: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.enum(BUDGET_TYPE_VALUES),
  tags: z.array(z.string()),
  resourceStatusId: z.string().nullable(),
  order: z.number(),
  sumBudgetComponentIds: z.array(z.string()),
  /** The direct components of a sum budget (the same list as sumBudgetComponentIds); empty otherwise. */
  childrenIds: z.array(z.string()),
  /** The sub-budgets pinned on this budget, over all schemes. */
  pinnedSubBudgetIds: z.array(z.string()),
  /** A common budget's schemes (the document's, in display order); empty for other types. */
  schemaIds: z.array(z.string()),
  /** Monitoring budgets: the import API address {publicUrl}/budgets/{budgetId}/import; null otherwise. */
  apiUrl: z.string().nullable(),
  result: z.object({ lastExecutionTime: z.string().nullable() }),
  permissions: budgetPermissionsSchema,
  /** includeMeta=true: sum budgets list their components' names joined by "; ", monitoring budgets the last execution time. */
  info: z.string().nullable().optional(),
});
export type Budget = z.infer<typeof budgetSchema>;

/** What a platform administrator (IS_ADMIN) also sees of a monitoring budget. */
export const budgetAdminSchema = budgetSchema.extend({
  gwUrl: z.string().nullable(),
  erpUrl: z.string().nullable(),
  syncEnabled: z.boolean(),
});
export type BudgetAdminView = z.infer<typeof budgetAdminSchema>;

/** Either shape; the gateway builds the admin one only for IS_ADMIN callers. */
export const budgetResponseSchema = z.union([budgetAdminSchema, budgetSchema]);

/**
 * GET api/document/{id}/budgets/hierarchy: the document's budgets in order with what each adds
 * up. childrenIds are the direct components of a sum budget, descendantIds all of them through
 * nested sum budgets (the client disables a component already added up by a selected one).
 */
export const budgetHierarchyNodeSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(BUDGET_TYPE_VALUES),
  order: z.number(),
  childrenIds: z.array(z.string()),
  descendantIds: z.array(z.string()),
  permissions: budgetPermissionsSchema,
});
export type BudgetHierarchyNode = z.infer<typeof budgetHierarchyNodeSchema>;

/** GET api/admin/budgets: the platform administrator's monitoring view (spec 1, section 3). */
export const adminBudgetSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(BUDGET_TYPE_VALUES),
  documentId: z.string(),
  documentName: z.string().nullable(),
  organizationId: z.string(),
  syncEnabled: z.boolean(),
  result: z.object({ lastExecutionTime: z.string().nullable(), status: z.string().nullable() }),
});
export const adminBudgetsQuerySchema = z.object({
  type: budgetTypeSchema.optional(),
  /** Comma-separated budget ids: only these. */
  inclusionList: rawText(BUDGET_LIMITS.inclusionListMax).optional(),
});

export const budgetApiKeySchema = z.object({ apiKey: z.string() });

/**
 * GET api/budget/{id}/copy-schemes?targetDocumentId=: the source budget's schemes that have a
 * scheme of the same technical name (fieldName) in the target document. Monitoring targets
 * cannot copy pinned preselections or comments.
 */
export const budgetCopySchemeSchema = z.object({
  schemeId: z.string(),
  name: z.string(),
  fieldName: z.string(),
  targetSchemeId: z.string(),
  pinnedCount: z.number(),
});
export const copySchemesQuerySchema = z.object({ targetDocumentId: id.optional() });

/** GET api/document/{documentId}/budgets/transferrable-sub-budgets?sourceBudgetId=. */
export const transferrableSubBudgetsQuerySchema = z.object({ sourceBudgetId: z.uuid({ message: 'validation.required' }) });
export const transferrableSubBudgetSchema = z.object({
  sourceSubBudgetId: z.string(),
  sourceSchemeId: z.string(),
  name: z.string(),
  targetSchemeId: z.string(),
  targetSubBudgetId: z.string().nullable(),
});
