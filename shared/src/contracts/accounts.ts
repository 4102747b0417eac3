import { z } from 'zod';
import { LIMITS } from '../limits';
import { PRIVILEGES } from '../privileges';
import { rawText } from '../text';
import { email, optionalTextArea, requiredText } from '../validation';
import { meSchema } from './auth';
import { AUTHENTICATION_TYPES } from './organizations';

/**
 * Users, roles, occupations and the sign-in flows around them (spec 1, sections 3, 5 and 7).
 * One schema per payload; the gateway validates with them and the web's forms reuse them.
 */

/** At least 8 characters with a lower-case letter, an upper-case letter and a digit (spec 1, section 5). */
export const strongPassword = rawText(1024)
  .min(LIMITS.passwordMinLength, { message: 'validation.passwordMinLength' })
  .refine((value) => /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value), { message: 'validation.passwordStrength' });

export const mfaCode = z.string().regex(/^\d{6}$/, { message: 'validation.mfaCode' });

// ---- users ----------------------------------------------------------------

export const userInputSchema = z.object({ name: requiredText(), email });
export type UserInput = z.input<typeof userInputSchema>;

export const userSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  email: z.string(),
  occupations: z.array(z.object({ id: z.string(), name: z.string(), type: z.enum(['ADMIN', 'DEFAULT']) })),
  /** Holds an ADMIN occupation: cannot be edited or deleted. */
  isAdmin: z.boolean(),
  hasPassword: z.boolean(),
  mfaAdded: z.boolean(),
  hasPersonalCode: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  confirmationSentAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  signInCount: z.number(),
  currentSignInAt: z.string().nullable(),
  lastSignInAt: z.string().nullable(),
  lastSeen: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;
export const userNameSchema = z.object({ id: z.string(), name: z.string() });

// ---- roles and privileges --------------------------------------------------

export const ADMIN_ROLE_NAME = 'ADMIN';

export const privilegeSchema = z.object({ id: z.enum(PRIVILEGES), name: z.string() });

export const roleInputSchema = z.object({
  id: z.uuid().optional(),
  organizationId: z.uuid().optional(),
  name: requiredText(),
  description: optionalTextArea().default(''),
  privilegeIds: z.array(z.enum(PRIVILEGES, { message: 'validation.allowedValues' })).default([]),
});
export type RoleInput = z.input<typeof roleInputSchema>;

export const roleSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  description: z.string(),
  privileges: z.array(privilegeSchema),
  type: z.enum(['ADMIN', 'DEFAULT']),
  /** Attached to at least one occupation: cannot be deleted. */
  inUse: z.boolean(),
});
export type Role = z.infer<typeof roleSchema>;

// ---- occupations -----------------------------------------------------------

const roleReference = z.union([z.uuid({ message: 'validation.format' }), z.object({ id: z.uuid({ message: 'validation.format' }) })]);

export const occupationInputSchema = z.object({
  userId: z.uuid({ message: 'validation.required' }),
  name: requiredText(),
  description: optionalTextArea().default(''),
  /** Role ids, or `{ id }` objects as the screens send them. */
  roles: z.array(roleReference).default([]),
});
export type OccupationInput = z.input<typeof occupationInputSchema>;

export const occupationSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  userId: z.string(),
  userName: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.enum(['ADMIN', 'DEFAULT']),
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type Occupation = z.infer<typeof occupationSchema>;

// ---- organisation administrators -------------------------------------------

/**
 * POST/DELETE api/admin/{organizationId}: the caller's `me` after the change. `reloginRequired`:
 * the caller removed the admin occupation their session was using; the session is gone and the
 * screens send the user to /login.
 */
export const adminChangeResponseSchema = meSchema.extend({ reloginRequired: z.boolean() });
export type AdminChangeResponse = z.infer<typeof adminChangeResponseSchema>;

// ---- passwords, tokens, MFA ------------------------------------------------

export const emailRequestSchema = z.object({ email });
const token = rawText(512).min(1, { message: 'validation.required' });
export const tokenVerifyRequestSchema = z.object({ token });
export const tokenVerifyResponseSchema = z.object({ allowedAuthenticationTypes: z.array(z.enum(AUTHENTICATION_TYPES)) });

export const TOKEN_TYPES = ['REGISTRATION', 'RESET'] as const;
export const confirmPasswordSchema = z.object({ type: z.enum(TOKEN_TYPES), token, password: strongPassword });

export const changePasswordSchema = z.object({
  currentPassword: rawText(1024).min(1, { message: 'validation.required' }),
  newPassword: strongPassword,
});

/**
 * PUT api/user-settings/email: a change of one's own e-mail. It takes effect only once the new
 * address confirms it (POST public/email-change/confirm with the mailed token); until then the
 * user signs in with the old one. `pendingEmail` is the address awaiting confirmation, if any.
 */
export const emailChangeRequestSchema = z.object({ email, currentPassword: changePasswordSchema.shape.currentPassword });
export const emailChangeStatusSchema = z.object({ pendingEmail: z.string().nullable() });
export type EmailChangeStatus = z.infer<typeof emailChangeStatusSchema>;
export const emailChangeConfirmResponseSchema = z.object({ email: z.string() });

export const mfaSecretSchema = z.object({
  /** otpauth:// URI for authenticator apps. */
  uri: z.string(),
  /** The base32 secret, for typing in by hand. */
  code: z.string(),
  /** The URI as a QR code image (data: URL). */
  qrCode: z.string(),
});
/** An MFA code; `occupationId` is the occupation to enter once the session is upgraded (sign-in flow). */
export const mfaCodeRequestSchema = z.object({ code: mfaCode, occupationId: z.uuid({ message: 'validation.format' }).optional().nullable() });
/** GET mfa-secret: `edit=true` re-runs the setup of an added MFA (needs an MFA-authenticated session). */
export const mfaSecretQuerySchema = z.object({ edit: z.enum(['true', 'false']).optional() });
export const activeSessionCountSchema = z.object({ activeSessionCount: z.number() });

// ---- settings --------------------------------------------------------------

export const USER_SETTING_TYPES = ['REPORT', 'REPORT_COLUMNS', 'BUDGET_ERP', 'BUDGET_SCHEME', 'OCCUPATION_DOCUMENT'] as const;
export const userSettingsQuerySchema = z.object({
  type: z.enum(USER_SETTING_TYPES),
  documentId: z.uuid().optional(),
  budgetId: z.uuid().optional(),
  subBudgetId: z.uuid().optional(),
});
export const userSettingsPutSchema = userSettingsQuerySchema.extend({ settings: z.record(z.string(), z.unknown()) });
export const userSettingsSchema = z.object({ type: z.enum(USER_SETTING_TYPES), settings: z.record(z.string(), z.unknown()) });
export const languageRequestSchema = z.object({ language: z.enum(['et', 'en']) });
