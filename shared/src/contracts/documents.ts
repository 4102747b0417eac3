import { z } from 'zod';
import { LIMITS } from '../limits';
import { RESOURCE_STATUS_RULE_TYPES } from './resource-statuses';
import { optionalTextArea, orderValue, requiredText } from '../validation';

/**
 * Documents (budget periods) and the tasks that copy them (spec 2, sections 3, 5, 7 and 9).
 * The gateway validates with these schemas and the web's forms reuse them.
 */
export const DOCUMENT_LIMITS = {
  nameMax: 100,
  durationMinYears: 1,
  durationMaxYears: 5,
  monthsPerYear: 12,
  defaultRecordAmountKey: 'summa',
  /** The client polls a copy task every 2 s for up to 60 s (spec 2, section 9). */
  taskPollIntervalMs: 2_000,
  taskPollTimeoutMs: 60_000,
} as const;

const id = z.uuid({ message: 'validation.format' });
const integer = z.number({ message: 'validation.number' }).int({ message: 'validation.number' });

export const documentPeriodSchema = z.object({
  year: integer.min(1000, { message: 'validation.min' }).max(9999, { message: 'validation.max' }),
  month: integer.min(1, { message: 'validation.min' }).max(DOCUMENT_LIMITS.monthsPerYear, { message: 'validation.max' }),
  duration: integer.min(DOCUMENT_LIMITS.durationMinYears, { message: 'validation.min' }).max(DOCUMENT_LIMITS.durationMaxYears, { message: 'validation.max' }),
});
export type DocumentPeriodInput = z.infer<typeof documentPeriodSchema>;

/**
 * Copy options when a document is made from another one (spec 2, section 5): the source is
 * required; copying schemes needs classifiers copied, report views need schemes copied.
 * Privileges (USER_ADMIN for permissions, CLASSIFICATION_ADMIN for classifiers, SCHEMA_ADMIN for
 * schemes) are checked by the gateway.
 */
export const documentCopyOptionsSchema = z
  .object({
    sourceDocumentId: z.uuid({ message: 'validation.required' }),
    permissions: z.boolean().default(false),
    classifiers: z.boolean().default(false),
    /** Schemes with their sub-budgets and preselections. */
    schemes: z.boolean().default(false),
    /** General and personal report views. */
    reportViews: z.boolean().default(false),
  })
  .superRefine((options, context) => {
    if (options.schemes && !options.classifiers) context.addIssue({ code: 'custom', path: ['schemes'], message: 'validation.copySchemesNeedsClassifiers' });
    if (options.reportViews && !options.schemes) context.addIssue({ code: 'custom', path: ['reportViews'], message: 'validation.copyReportViewsNeedsSchemes' });
  });
export type DocumentCopyOptions = z.infer<typeof documentCopyOptionsSchema>;

/**
 * Create (POST api/organization/{organizationId}/document) and edit (PUT api/document/{id}).
 * masterClassifierId is set on edit; it is required there once the document has classifiers
 * (the gateway answers SCHEMA_VALIDATION_ERROR on `body.masterClassifierId` otherwise).
 * allowCommentingWithReadPermissions: only IS_ADMIN may change it; omitted on edit means unchanged.
 * `copy` is read on create only.
 */
export const documentInputSchema = z.object({
  id: id.optional(),
  organizationId: id.optional(),
  name: requiredText(DOCUMENT_LIMITS.nameMax),
  description: optionalTextArea().default(''),
  period: documentPeriodSchema,
  recordAmountKey: requiredText(LIMITS.text).default(DOCUMENT_LIMITS.defaultRecordAmountKey),
  masterClassifierId: id.nullable().optional(),
  allowCommentingWithReadPermissions: z.boolean().optional(),
  resourceStatusId: id.nullable().default(null),
  copy: documentCopyOptionsSchema.nullable().optional(),
});
export type DocumentInput = z.input<typeof documentInputSchema>;

export const documentSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  description: z.string(),
  period: z.object({ year: z.number(), month: z.number(), duration: z.number() }),
  masterClassifierId: z.string().nullable(),
  recordAmountKey: z.string(),
  allowCommentingWithReadPermissions: z.boolean(),
  resourceStatusId: z.string().nullable(),
  /** Higher comes first; values count down from the list's length after a reorder. */
  order: z.number(),
  /** Records in the document's budgets (0 until records exist); the period is locked above 0. */
  recordsCount: z.number(),
  createdAt: z.string(),
  /** What the caller may do with the document (the settings tab needs update). */
  /** The caller's grants on the document and the rules of its status in force for the caller. */
  permissions: z.object({ read: z.boolean(), update: z.boolean(), restrictions: z.array(z.enum(RESOURCE_STATUS_RULE_TYPES)).default([]) }),
  /**
   * A copy whose copy task still runs (COPYING) or failed or was interrupted (INCOMPLETE: parts
   * are missing; the owner may delete it and copy again); null for a finished copy or an original.
   */
  copyStatus: z.enum(['COPYING', 'INCOMPLETE']).nullable().optional(),
});
export type Document = z.infer<typeof documentSchema>;

/** 201 of a create: with `taskId` when the document is a copy (poll GET api/task/{taskId}). */
export const documentCreatedSchema = z.object({ id: z.string(), position: z.string().nullable(), taskId: z.string().optional() });
export type DocumentCreatedResult = z.infer<typeof documentCreatedSchema>;

/** PUT api/organization/{organizationId}/documents/order; order values count down from the list's length. */
export const orderSchema = z.object({
  organizationId: id.optional(),
  list: z.array(z.object({ id, order: orderValue })).min(1, { message: 'validation.required' }),
});
export type OrderInput = z.infer<typeof orderSchema>;

export const TASK_STATUSES = ['UNPROCESSED', 'PROCESSING', 'SUCCESS', 'ERROR'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** SUCCESS and ERROR are final. */
export const FINAL_TASK_STATUSES: readonly TaskStatus[] = ['SUCCESS', 'ERROR'];

export const taskSchema = z.object({
  id: z.string(),
  type: z.string(),
  status: z.enum(TASK_STATUSES),
  organizationId: z.string(),
  /** The document the task works on (the new document of a copy). */
  documentId: z.string().nullable(),
  params: z.record(z.string(), z.unknown()),
  /** One entry per step that ran or will run, in order. */
  steps: z.array(z.object({ name: z.string(), status: z.enum(TASK_STATUSES), error: z.string().nullable() })),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Task = z.infer<typeof taskSchema>;

/** The parts a document copy can take today: GET api/document-copy/parts (the others arrive with their features). */
export const DOCUMENT_COPY_PARTS = ['classifiers', 'schemes', 'permissions', 'reportViews'] as const;
export type DocumentCopyPart = (typeof DOCUMENT_COPY_PARTS)[number];
export const documentCopyPartsSchema = z.object({ parts: z.array(z.enum(DOCUMENT_COPY_PARTS)) });
