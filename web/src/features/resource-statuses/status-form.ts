import {
  RESOURCE_STATUS_RULE_TYPES,
  type ResourceStatus,
  type ResourceStatusFields,
  type ResourceStatusIcon,
  type ResourceStatusLanguage,
  type ResourceStatusRuleType,
  resourceStatusInputSchema,
} from '@eelarve/shared';
import { type FieldErrors, messageOf, validate } from '../../components/form';

/** Whom a rule exempts: nobody, holders of privileges, or holders of roles (never both, spec 1 section 3). */
export type OverrideKind = 'none' | 'privileges' | 'roles';

export interface RuleValues {
  on: boolean;
  override: OverrideKind;
  privileges: string[];
  roles: string[];
}

export interface StatusValues {
  name: Record<ResourceStatusLanguage, string>;
  description: Record<ResourceStatusLanguage, string>;
  icon: ResourceStatusIcon | '';
  rules: Record<ResourceStatusRuleType, RuleValues>;
}

const OFF: RuleValues = { on: false, override: 'none', privileges: [], roles: [] };

function ruleValuesOf(status: ResourceStatus | null, type: ResourceStatusRuleType): RuleValues {
  const rule = status?.rules.find((candidate) => candidate.type === type);
  if (!rule) return OFF;
  const override: OverrideKind = rule.overridePrivileges.length > 0 ? 'privileges' : rule.overrideRoles.length > 0 ? 'roles' : 'none';
  return { on: true, override, privileges: [...rule.overridePrivileges], roles: [...rule.overrideRoles] };
}

/** The form's values: the status's own, or empty for a new one. */
export function initialValues(status: ResourceStatus | null): StatusValues {
  const rules = Object.fromEntries(RESOURCE_STATUS_RULE_TYPES.map((type) => [type, ruleValuesOf(status, type)])) as StatusValues['rules'];
  return {
    name: { et: status?.name.et ?? '', en: status?.name.en ?? '' },
    description: { et: status?.description.et ?? '', en: status?.description.en ?? '' },
    icon: (status?.icon as ResourceStatusIcon | undefined) ?? '',
    rules,
  };
}

/** The body sent: only the switched-on rules, each with the one kind of exception chosen. */
export function payloadOf(values: StatusValues) {
  const rules = RESOURCE_STATUS_RULE_TYPES.filter((type) => values.rules[type].on).map((type) => {
    const rule = values.rules[type];
    return {
      type,
      overridePrivileges: rule.override === 'privileges' ? rule.privileges : [],
      overrideRoles: rule.override === 'roles' ? rule.roles : [],
    };
  });
  return { name: values.name, description: values.description, icon: values.icon, rules };
}

/**
 * The form's checks (spec 1, section 5): name and description at least in the organisation's
 * language, an icon, and a chosen exception that names someone.
 */
export function validateStatus(values: StatusValues, organizationLanguage: ResourceStatusLanguage): { data: ResourceStatusFields | null; errors: FieldErrors } {
  const checked = validate(resourceStatusInputSchema, payloadOf(values));
  const errors: FieldErrors = { ...checked.errors };
  const required = messageOf('validation.required');
  if (!values.name[organizationLanguage].trim()) errors[`name.${organizationLanguage}`] = required;
  if (!values.description[organizationLanguage].trim()) errors[`description.${organizationLanguage}`] = required;
  for (const type of RESOURCE_STATUS_RULE_TYPES) {
    const rule = values.rules[type];
    if (rule.on && rule.override !== 'none' && rule[rule.override].length === 0) errors[`rules.${type}`] = required;
  }
  const valid = checked.data !== null && Object.keys(errors).length === 0;
  return { data: valid ? checked.data : null, errors };
}

/** The organisation's language when it is one statuses are named in; Estonian otherwise. */
export function statusLanguageOf(language: string | undefined): ResourceStatusLanguage {
  return language === 'en' ? 'en' : 'et';
}
