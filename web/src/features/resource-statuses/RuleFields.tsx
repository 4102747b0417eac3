import { PRIVILEGES, RESOURCE_STATUS_RULE_TYPES, type ResourceStatusRuleType, type Role } from '@eelarve/shared';
import { useIntl } from 'react-intl';
import { CheckboxField, type FieldErrors, FieldError, FieldSet } from '../../components/form';
import { MultiSelect } from '../../components/MultiSelect';
import type { MessageKey } from '../../i18n/messages';
import type { OverrideKind, RuleValues, StatusValues } from './status-form';

const OVERRIDE_LABELS: Record<OverrideKind, MessageKey> = {
  none: 'statuses.rule.overrideNone',
  privileges: 'statuses.rule.overridePrivileges',
  roles: 'statuses.rule.overrideRoles',
};

/**
 * The rules of a status: one switch per rule type, and for a switched-on rule whom it exempts —
 * holders of privileges or of default-type roles, one kind only (spec 1, sections 3 and 5).
 */
export function RuleFields({
  rules,
  onChange,
  roles,
  readOnly,
  errors,
}: {
  rules: StatusValues['rules'];
  onChange: (type: ResourceStatusRuleType, rule: RuleValues) => void;
  roles: readonly Role[];
  readOnly: boolean;
  errors: FieldErrors;
}) {
  const intl = useIntl();
  const hint = readOnly ? intl.formatMessage({ id: 'statuses.field.rulesReadOnly' }) : undefined;
  return (
    <FieldSet legend={intl.formatMessage({ id: 'statuses.field.rules' })} hint={hint} testId="status-rules">
      {RESOURCE_STATUS_RULE_TYPES.map((type) => (
        <RuleRow key={type} type={type} rule={rules[type]} onChange={(rule) => onChange(type, rule)} roles={roles} readOnly={readOnly} errors={errors} />
      ))}
    </FieldSet>
  );
}

function RuleRow({
  type,
  rule,
  onChange,
  roles,
  readOnly,
  errors,
}: {
  type: ResourceStatusRuleType;
  rule: RuleValues;
  onChange: (rule: RuleValues) => void;
  roles: readonly Role[];
  readOnly: boolean;
  errors: FieldErrors;
}) {
  const intl = useIntl();
  const label = intl.formatMessage({ id: `statuses.rule.${type}` as MessageKey });
  const privilegeOptions = PRIVILEGES.map((privilege) => ({ value: privilege, label: intl.formatMessage({ id: `privilege.${privilege}` as MessageKey }) }));
  const roleOptions = roles.filter((role) => role.type === 'DEFAULT').map((role) => ({ value: role.id, label: role.name }));
  const overrideLabel = intl.formatMessage({ id: 'statuses.rule.override' });
  return (
    <div className="status-rule" data-testid={`status-rule-${type}`}>
      <CheckboxField checked={rule.on} onChange={(on) => onChange({ ...rule, on })} disabled={readOnly} testId={`status-rule-${type}-on`}>
        {label}
      </CheckboxField>
      {rule.on ? (
        <div className="status-rule-override">
          <select
            aria-label={`${label}: ${overrideLabel}`}
            value={rule.override}
            disabled={readOnly}
            onChange={(event) => onChange({ ...rule, override: event.target.value as OverrideKind })}
            data-testid={`status-rule-${type}-override`}
          >
            {(Object.keys(OVERRIDE_LABELS) as OverrideKind[]).map((kind) => (
              // Roles can be chosen only when there are default-type roles to offer.
              <option key={kind} value={kind} disabled={kind === 'roles' && roleOptions.length === 0 && rule.override !== 'roles'}>
                {intl.formatMessage({ id: OVERRIDE_LABELS[kind] })}
              </option>
            ))}
          </select>
          {rule.override === 'privileges' ? (
            <MultiSelect
              options={privilegeOptions}
              value={rule.privileges}
              onChange={(privileges) => onChange({ ...rule, privileges })}
              placeholder={intl.formatMessage({ id: 'statuses.rule.choosePrivileges' })}
              label={`${label}: ${intl.formatMessage({ id: 'statuses.rule.choosePrivileges' })}`}
              disabled={readOnly}
              testId={`status-rule-${type}-privileges`}
            />
          ) : null}
          {rule.override === 'roles' ? (
            <MultiSelect
              options={roleOptions}
              value={rule.roles}
              onChange={(chosen) => onChange({ ...rule, roles: chosen })}
              placeholder={intl.formatMessage({ id: 'statuses.rule.chooseRoles' })}
              label={`${label}: ${intl.formatMessage({ id: 'statuses.rule.chooseRoles' })}`}
              disabled={readOnly}
              testId={`status-rule-${type}-roles`}
            />
          ) : null}
          <FieldError error={errors[`rules.${type}`]} />
        </div>
      ) : null}
    </div>
  );
}
