import { z } from 'zod';
import { PRIVILEGES } from '../privileges';
import { optionalText, optionalTextArea, uuid } from '../validation';

/**
 * Resource statuses (spec 1, sections 3-8; spec 2, sections 2, 5, 6). A status set on a document
 * or budget switches on the restrictions its rules name; a rule can exempt holders of given
 * privileges or of given (default-type) roles, never both in one rule.
 *
 * What each rule type does to the resource carrying the status (applied by the authorisation
 * module in the next step of issue 10; here they are only stored):
 * - READ_DISABLED: the resource cannot be opened (its name is plain text, its tabs are disabled).
 * - RESOURCE_WRITE_DISABLED: its data cannot be changed (records, imports, sub-budgets, deletion,
 *   creating budgets in a document, edit mode of the budget list).
 * - METADATA_WRITE_DISABLED: its settings cannot be changed (name, type, classifiers, schemes).
 * - METADATA_READ_DISABLED: its settings are hidden (a budget cannot be a sum component).
 * - COMMENT_READ_DISABLED: its comments are hidden.
 * - SYNCHRONIZATION_PAUSED: a monitoring budget (or every monitoring budget of the document) is
 *   not synchronised from its ERP while the status is set.
 */
export const RESOURCE_STATUS_RULE_TYPES = [
  'READ_DISABLED',
  'RESOURCE_WRITE_DISABLED',
  'METADATA_WRITE_DISABLED',
  'METADATA_READ_DISABLED',
  'COMMENT_READ_DISABLED',
  'SYNCHRONIZATION_PAUSED',
] as const;
export type ResourceStatusRuleType = (typeof RESOURCE_STATUS_RULE_TYPES)[number];

/** Languages a status is named in; the organisation's own language is required. */
export const RESOURCE_STATUS_LANGUAGES = ['et', 'en'] as const;
export type ResourceStatusLanguage = (typeof RESOURCE_STATUS_LANGUAGES)[number];

/** Icons the status form offers (names of the web's icon set). */
export const RESOURCE_STATUS_ICONS = ['edit', 'hourglass', 'check', 'lock', 'eye-off', 'pause', 'archive', 'flag', 'star', 'warning'] as const;
export type ResourceStatusIcon = (typeof RESOURCE_STATUS_ICONS)[number];

const allowedValues = { message: 'validation.allowedValues' };

export const resourceStatusRuleSchema = z.object({
  type: z.enum(RESOURCE_STATUS_RULE_TYPES, { message: 'validation.required' }),
  /** Holders of any of these privileges are exempt from the rule. */
  overridePrivileges: z.array(z.enum(PRIVILEGES, allowedValues)).max(PRIVILEGES.length).default([]),
  /** Occupations holding any of these roles (default-type roles of the organisation) are exempt. */
  overrideRoles: z.array(uuid).max(100).default([]),
});
export type ResourceStatusRule = z.output<typeof resourceStatusRuleSchema>;

/** POST api/resource-statuses and PUT api/resource-status/{id}. A default status keeps its rules. */
export const resourceStatusInputSchema = z.object({
  id: z.uuid().optional(),
  name: z.object({ et: optionalText().default(''), en: optionalText().default('') }),
  description: z.object({ et: optionalTextArea().default(''), en: optionalTextArea().default('') }),
  icon: z.enum(RESOURCE_STATUS_ICONS, allowedValues),
  rules: z.array(resourceStatusRuleSchema).max(RESOURCE_STATUS_RULE_TYPES.length).default([]),
});
export type ResourceStatusInput = z.input<typeof resourceStatusInputSchema>;
export type ResourceStatusFields = z.output<typeof resourceStatusInputSchema>;

export type LocalizedText = Record<ResourceStatusLanguage, string>;

export interface DefaultResourceStatus {
  id: string;
  name: LocalizedText;
  description: LocalizedText;
  icon: ResourceStatusIcon;
  rules: ResourceStatusRule[];
}

const rule = (type: ResourceStatusRuleType): ResourceStatusRule => ({ type, overridePrivileges: [], overrideRoles: [] });

/**
 * The default statuses (the preset set "default" of the organisation's locale settings). Every
 * organisation that uses statuses has them, read-only: their rules cannot change and they cannot
 * be deleted; name, description and icon can, and "reset to defaults" restores them from the
 * default with the same rules. Their ids are the same in every organisation.
 */
export const DEFAULT_RESOURCE_STATUSES: readonly DefaultResourceStatus[] = [
  {
    id: '5e7a0000-0000-4000-8000-000000000001',
    name: { et: 'Koostamisel', en: 'In preparation' },
    description: { et: 'Eelarvet koostatakse; piiranguid pole.', en: 'The budget is being prepared; nothing is restricted.' },
    icon: 'edit',
    rules: [],
  },
  {
    id: '5e7a0000-0000-4000-8000-000000000002',
    name: { et: 'Kinnitamisel', en: 'Submitted for approval' },
    description: { et: 'Andmeid ja seadeid ei saa muuta.', en: 'Data and settings cannot be changed.' },
    icon: 'hourglass',
    rules: [rule('RESOURCE_WRITE_DISABLED'), rule('METADATA_WRITE_DISABLED')],
  },
  {
    id: '5e7a0000-0000-4000-8000-000000000003',
    name: { et: 'Kinnitatud', en: 'Approved' },
    description: {
      et: 'Lukus: andmeid ja seadeid ei saa muuta, sünkroniseerimine on peatatud.',
      en: 'Locked: data and settings cannot be changed, synchronisation is paused.',
    },
    icon: 'check',
    rules: [rule('RESOURCE_WRITE_DISABLED'), rule('METADATA_WRITE_DISABLED'), rule('SYNCHRONIZATION_PAUSED')],
  },
  {
    id: '5e7a0000-0000-4000-8000-000000000004',
    name: { et: 'Peidetud', en: 'Hidden' },
    description: { et: 'Ressurssi, selle seadeid ja kommentaare ei näidata.', en: 'The resource, its settings and comments are hidden.' },
    icon: 'eye-off',
    rules: [rule('READ_DISABLED'), rule('METADATA_READ_DISABLED'), rule('COMMENT_READ_DISABLED'), rule('SYNCHRONIZATION_PAUSED')],
  },
];

export const findDefaultResourceStatus = (id: string) => DEFAULT_RESOURCE_STATUSES.find((status) => status.id === id);

const sortedStrings = (values: readonly string[]) => [...values].sort();

/** Rules compared as sets: the order of rules and of their overrides does not matter. */
export function sameRules(a: readonly ResourceStatusRule[], b: readonly ResourceStatusRule[]): boolean {
  const key = (rules: readonly ResourceStatusRule[]) =>
    JSON.stringify(
      rules
        .map((r) => [r.type, sortedStrings(r.overridePrivileges), sortedStrings(r.overrideRoles)])
        .sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1)),
    );
  return key(a) === key(b);
}

type StatusLabels = { name: LocalizedText; description: LocalizedText; icon: string };

/** Name, description and icon equal (stored JSON may order the languages differently). */
export function sameLabels(a: StatusLabels, b: StatusLabels): boolean {
  const sameText = (x: LocalizedText, y: LocalizedText) => RESOURCE_STATUS_LANGUAGES.every((language) => x[language] === y[language]);
  return sameText(a.name, b.name) && sameText(a.description, b.description) && a.icon === b.icon;
}

/** The default a read-only status is reset to: the one with the same rules (spec 1, section 4). */
export const matchingDefaultResourceStatus = (rules: readonly ResourceStatusRule[]) =>
  DEFAULT_RESOURCE_STATUSES.find((status) => sameRules(status.rules, rules));

/** GET api/resource-statuses: the organisation's statuses, the defaults first. */
export const resourceStatusSchema = z.object({
  id: z.string(),
  /** Absent for default statuses (spec 1, section 3). */
  organizationId: z.string().optional(),
  name: z.object({ et: z.string(), en: z.string() }),
  description: z.object({ et: z.string(), en: z.string() }),
  icon: z.string(),
  /** A default status: its rules cannot change and it cannot be deleted. */
  readOnly: z.boolean(),
  rules: z.array(z.object({ type: z.enum(RESOURCE_STATUS_RULE_TYPES), overridePrivileges: z.array(z.string()), overrideRoles: z.array(z.string()) })),
  /** A read-only status whose name, description or icon differ from its default: reset is possible. */
  resettable: z.boolean(),
});
export type ResourceStatus = z.infer<typeof resourceStatusSchema>;

/** A command's answer with warnings to show (deleting a role used in statuses). */
export const commandResultWithWarningsSchema = z.object({
  id: z.string(),
  position: z.string().nullable(),
  warnings: z.array(z.object({ code: z.literal('ROLE_REMOVED_FROM_RESOURCE_STATUSES'), resourceStatusIds: z.array(z.string()) })).optional(),
});
