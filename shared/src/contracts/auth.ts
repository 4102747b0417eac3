import { z } from 'zod';
import { LIMITS } from '../limits';
import { rawText } from '../text';
import { requiredText } from '../validation';
import { AUTHENTICATION_TYPES } from './organizations';
import { resourceStatusSchema } from './resource-statuses';

export const loginRequestSchema = z.object({
  username: requiredText(LIMITS.text),
  password: rawText(1024).min(1, { message: 'validation.required' }),
  rememberMe: z.boolean().optional().default(false),
  occupationId: z.uuid().optional().nullable(),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const logoutRequestSchema = z.object({ logoutAllSessions: z.boolean().optional().default(false) }).nullish();

export const occupationSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(['ADMIN', 'DEFAULT']),
  organizationId: z.string(),
  organizationName: z.string(),
  allowedAuthenticationTypes: z.array(z.enum(AUTHENTICATION_TYPES)),
});

/** GET api/auth/me: the signed-in user as the screens need it (spec 1, section 3). */
export const meSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  organizationId: z.string().nullable(),
  organizationName: z.string().nullable(),
  occupationId: z.string().nullable(),
  lastOccupationId: z.string().nullable(),
  occupations: z.array(occupationSummarySchema),
  privileges: z.array(z.string()),
  authenticationType: z.enum(AUTHENTICATION_TYPES),
  organizationEnableResourceStatuses: z.boolean(),
  /** The occupation may update its organisation: create and reorder documents (an ADMIN occupation, or an organisation-update grant). */
  mayUpdateOrganization: z.boolean().default(false),
  /** The organisation lets STATUS_ADMIN edit its statuses (spec 1, section 6). */
  organizationAllowResourceStatusEditing: z.boolean(),
  /** The organisation's statuses (none when it does not use them). */
  resourceStatuses: z.array(resourceStatusSchema),
  organizationLocaleSettings: z.record(z.string(), z.string()).nullable(),
  userLanguage: z.string().nullable(),
  hasPersonalCode: z.boolean(),
  mfaAdded: z.boolean(),
  hasPassword: z.boolean(),
  activeSessionCount: z.number(),
});
export type Me = z.infer<typeof meSchema>;

export const selectOccupationSchema = z.object({ occupationId: z.uuid({ message: 'validation.format' }) });
