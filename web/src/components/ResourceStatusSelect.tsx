import type { Me, ResourceStatus } from '@eelarve/shared';
import { useIntl } from 'react-intl';
import { codeFieldErrors, type FieldErrors, type FieldMessage, messageOf, pickErrors, SelectField, serverFieldErrors } from './form';

/**
 * Glyphs of the status icons (shared RESOURCE_STATUS_ICONS). Plain text, because a native
 * select's options cannot hold drawings; an unknown icon shows no glyph. Each is in the common
 * fonts (DejaVu on Linux too), so none shows as an empty box.
 */
const ICON_GLYPHS: Readonly<Record<string, string>> = {
  edit: '✎',
  hourglass: '◷',
  check: '✓',
  lock: '▣',
  'eye-off': '⊘',
  pause: '‖',
  archive: '▤',
  flag: '⚑',
  star: '★',
  warning: '⚠',
};

/** The glyph of a status icon; an unknown icon has none. */
export const statusIconGlyph = (icon: string): string => ICON_GLYPHS[icon] ?? '';

/** The status name in the UI language, else in the organisation's language, else in any language it has. */
export function resourceStatusName(status: ResourceStatus, uiLanguage: string, organizationLanguage: string | undefined): string {
  const names = status.name as Record<string, string>;
  return names[uiLanguage] || (organizationLanguage ? names[organizationLanguage] : '') || status.name.et || status.name.en;
}

/** The option's text: the icon's glyph, then the name. */
export function resourceStatusLabel(status: ResourceStatus, uiLanguage: string, organizationLanguage: string | undefined): string {
  const glyph = statusIconGlyph(status.icon);
  const name = resourceStatusName(status, uiLanguage, organizationLanguage);
  return glyph ? `${glyph} ${name}` : name;
}

/** Whether the status field is shown (and required): only where the organisation uses statuses (spec 2, section 2). */
export function usesResourceStatuses(me: Me): boolean {
  return me.organizationEnableResourceStatuses;
}

/** The "Status" select of the document and budget forms, over the organisation's statuses on `me`. */
export function ResourceStatusSelect({
  me,
  value,
  onChange,
  error,
  disabled,
  testId,
}: {
  me: Me;
  value: string;
  onChange: (statusId: string) => void;
  error?: FieldMessage;
  /** Read-only, e.g. where a status locks the settings for someone who may not unlock it. */
  disabled?: boolean;
  testId: string;
}) {
  const intl = useIntl();
  const organizationLanguage = me.organizationLocaleSettings?.language;
  const options = me.resourceStatuses.map((status) => ({ value: status.id, label: resourceStatusLabel(status, intl.locale, organizationLanguage) }));
  return (
    <SelectField
      labelId="documents.field.resourceStatus"
      value={value}
      onChange={onChange}
      options={options}
      placeholder={intl.formatMessage({ id: 'documents.field.resourceStatusPlaceholder' })}
      error={error}
      disabled={disabled}
      testId={testId}
    />
  );
}

/** The server's message about the status field (required, or a status the organisation does not have), else none. */
export function resourceStatusServerError(error: unknown): FieldErrors {
  const fromServer = { ...serverFieldErrors(error), ...codeFieldErrors(error, { RESOURCE_STATUS_NOT_FOUND: RESOURCE_STATUS_FIELD }) };
  return pickErrors(fromServer, [RESOURCE_STATUS_FIELD]);
}

/** The status field's name in payloads and field messages. */
export const RESOURCE_STATUS_FIELD = 'resourceStatusId';

/** The status to send: the chosen one where statuses are used (required there), otherwise null. */
export function resourceStatusValue(me: Me, statusId: string): { value: string | null; error?: FieldMessage } {
  if (!usesResourceStatuses(me)) return { value: null };
  if (statusId === '') return { value: null, error: messageOf('validation.required') };
  return { value: statusId };
}
