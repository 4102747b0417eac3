import { z } from 'zod';
import { BUDGET_TYPE_VALUES } from './budgets';

/**
 * Resource permissions (spec 1, sections 3, 6 and 7): read and update per occupation on the
 * organisation, a document, a budget, or a sub-budget seen from its budget. `read`/`update` are
 * granted on the resource itself; `inheritedRead`/`inheritedUpdate` come from a grant above it
 * (shown dimmed, and not removable below where they were given). Update implies read.
 */
const id = z.uuid({ message: 'validation.format' });

/** At most this many grants in one bulk change (the header toggle over a table's rows). */
export const MAX_PERMISSIONS_PER_CHANGE = 5_000;

export const permissionSchema = z.object({
  occupationId: z.string(),
  documentId: z.string().nullable(),
  budgetId: z.string().nullable(),
  subBudgetId: z.string().nullable(),
  read: z.boolean(),
  update: z.boolean(),
  inheritedRead: z.boolean(),
  inheritedUpdate: z.boolean(),
});
export type Permission = z.infer<typeof permissionSchema>;

/**
 * One grant: no documentId is the organisation; a budgetId needs its documentId, a subBudgetId its
 * budgetId (PERMISSIONS_CHAIN_INVALID otherwise). `read: false, update: false` removes the grant.
 */
export const permissionInputSchema = z.object({
  documentId: id.nullable().default(null),
  budgetId: id.nullable().default(null),
  subBudgetId: id.nullable().default(null),
  read: z.boolean(),
  update: z.boolean(),
});
export type PermissionInput = z.output<typeof permissionInputSchema>;

export const permissionsInputSchema = z.object({
  permissions: z.array(permissionInputSchema).min(1, { message: 'validation.required' }).max(MAX_PERMISSIONS_PER_CHANGE, { message: 'validation.max' }),
});
export type PermissionsInput = z.output<typeof permissionsInputSchema>;

/** POST api/occupation/{id}/permissions/copy: the occupation's grants become exactly those of `fromOccupationId`. */
export const permissionsCopySchema = z.object({ fromOccupationId: id });
export type PermissionsCopy = z.output<typeof permissionsCopySchema>;

export const occupationPermissionsQuerySchema = z.object({ documentId: id.optional() });

/**
 * GET api/document/{id}/permission-resources: what the permission screens grant on, by name, for
 * user viewers and administrators whatever their own grants (they manage everyone's): the
 * document's budgets and schemes.
 */
export const permissionResourcesSchema = z.object({
  budgets: z.array(z.object({ id: z.string(), name: z.string(), type: z.enum(BUDGET_TYPE_VALUES) })),
  schemes: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type PermissionResources = z.infer<typeof permissionResourcesSchema>;

/** GET api/schema/{id}/permission-sub-budgets: a scheme's sub-budgets by name (the same under every budget). */
export const permissionSubBudgetsSchema = z.array(z.object({ id: z.string(), name: z.string() }));
export type PermissionSubBudget = z.infer<typeof permissionSubBudgetsSchema>[number];
