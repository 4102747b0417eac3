import { z } from 'zod';
import { LIMITS, MS_PER_DAY, MS_PER_HOUR } from '../limits';
import { LOCALE_CODES, LOCALE_SETTINGS } from '../locales';
import { requiredText } from '../validation';

export const AUTHENTICATION_TYPES = ['LOGIN', 'LOGIN_WITH_MFA', 'BASIC', 'PASS'] as const;
export type AuthenticationType = (typeof AUTHENTICATION_TYPES)[number];

const localeSettingsSchema = z.object(
  Object.fromEntries(
    LOCALE_SETTINGS.map((setting) => [setting.name, z.enum(setting.options as unknown as [string, ...string[]], { message: 'validation.required' })]),
  ) as Record<(typeof LOCALE_SETTINGS)[number]['name'], z.ZodEnum<Record<string, string>>>,
);

/**
 * The organisation modal (spec 1, section 5). BASIC stands for API usage: the form sets it
 * through apiUsageAllowed, so allowedAuthenticationTypes needs one interactive type.
 */
export const organizationInputSchema = z
  .object({
    name: requiredText(LIMITS.text),
    localeCode: z.enum(LOCALE_CODES, { message: 'validation.required' }),
    localeSettings: localeSettingsSchema,
    enableResourceStatuses: z.boolean({ message: 'validation.required' }),
    allowResourceStatusEditing: z.boolean({ message: 'validation.required' }),
    allowedAuthenticationTypes: z
      .array(z.enum(AUTHENTICATION_TYPES))
      .refine((types) => types.some((type) => type !== 'BASIC'), { message: 'validation.authenticationTypeRequired' }),
    apiUsageAllowed: z.boolean({ message: 'validation.required' }),
    // At most the spec's 180 days counted in hours, the smaller unit; the refinement below checks the product.
    sessionLength: z
      .number({ message: 'validation.number' })
      .int({ message: 'validation.number' })
      .min(1, { message: 'validation.min' })
      .max((LIMITS.sessionLengthMaxDays * MS_PER_DAY) / MS_PER_HOUR, { message: 'validation.sessionLengthMax' }),
    sessionLengthMultiplier: z.union([z.literal(MS_PER_DAY), z.literal(MS_PER_HOUR)]).default(MS_PER_DAY),
  })
  .refine((org) => org.sessionLength * org.sessionLengthMultiplier <= LIMITS.sessionLengthMaxDays * MS_PER_DAY, {
    path: ['sessionLength'],
    message: 'validation.sessionLengthMax',
  });
export type OrganizationInput = z.input<typeof organizationInputSchema>;

export const organizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  nrOfUsers: z.number().nullable(),
  localeCode: z.enum(LOCALE_CODES),
  localeSettings: z.record(z.string(), z.string()),
  enableResourceStatuses: z.boolean(),
  allowResourceStatusEditing: z.boolean(),
  allowedAuthenticationTypes: z.array(z.enum(AUTHENTICATION_TYPES)),
  apiUsageAllowed: z.boolean(),
  sessionLength: z.number(),
  sessionLengthMultiplier: z.number(),
  isPlatform: z.boolean(),
});
export type Organization = z.infer<typeof organizationSchema>;

export const organizationListSchema = z.array(organizationSchema);

export const localesResponseSchema = z.object({
  locales: z.array(z.object({ code: z.string(), defaultSettings: z.record(z.string(), z.string()) })),
  localeSettings: z.array(z.object({ name: z.string(), options: z.array(z.string()) })),
});
