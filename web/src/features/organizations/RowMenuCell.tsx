import { hasAnyPrivilege, type Me, type Organization } from '@eelarve/shared';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { FormattedMessage, useIntl } from 'react-intl';
import { type DropdownItem, DropdownMenu } from '../../components/DropdownMenu';
import { MoreIcon } from '../../components/icons';
import { useCurrentUser } from '../../app/session';
import './organizations.css';

export interface OrganizationGridContext {
  onEdit: (organization: Organization) => void;
  onDelete: (organization: Organization) => void;
  onSetAdmin: (organization: Organization) => void;
  onRemoveAdmin: (organization: Organization) => void;
}

/** Whether the signed-in user holds an administrator occupation in the organisation. */
export function isAdminOf(me: Me, organizationId: string): boolean {
  return me.occupations.some((occupation) => occupation.organizationId === organizationId && occupation.type === 'ADMIN');
}

/**
 * Which admin action the row offers (spec 1, sections 2 and 6): IS_ADMIN only; "remove" when the
 * user is the organisation's administrator, otherwise "set" (never for the platform organisation).
 */
export function adminActionFor(me: Me, organization: Organization): 'set' | 'remove' | null {
  if (!hasAnyPrivilege(me.privileges, 'IS_ADMIN')) return null;
  if (isAdminOf(me, organization.id)) return 'remove';
  return organization.isPlatform ? null : 'set';
}

/** The row menu of the organisations table: edit, delete, set or remove the administrator. */
export function RowMenuCell({ data, context }: CustomCellRendererProps<Organization, unknown, OrganizationGridContext>) {
  const intl = useIntl();
  // Read here (not from the grid context) so that the menu follows `me` after an admin change.
  const me = useCurrentUser();
  if (!data) return null;
  const adminAction = adminActionFor(me, data);
  const items: DropdownItem[] = [
    {
      key: 'edit',
      label: <FormattedMessage id="common.edit" />,
      onSelect: () => context.onEdit(data),
      testId: 'organization-edit',
    },
  ];
  if (adminAction === 'set') {
    items.push({
      key: 'set-admin',
      label: <FormattedMessage id="organizations.setAdmin" />,
      onSelect: () => context.onSetAdmin(data),
      testId: 'organization-set-admin',
    });
  } else if (adminAction === 'remove') {
    items.push({
      key: 'remove-admin',
      label: <FormattedMessage id="organizations.removeAdmin" />,
      onSelect: () => context.onRemoveAdmin(data),
      testId: 'organization-remove-admin',
    });
  }
  items.push({
    key: 'delete',
    label: <FormattedMessage id="common.delete" />,
    onSelect: () => context.onDelete(data),
    danger: true,
    testId: 'organization-delete',
  });
  return (
    <div className="row-menu-cell">
      <DropdownMenu label={intl.formatMessage({ id: 'organizations.rowMenu' }, { name: data.name })} testId="organization-row-menu" items={items}>
        <MoreIcon />
      </DropdownMenu>
    </div>
  );
}

/** The name, with a badge where the signed-in user is the administrator. */
export function OrganizationNameCell({ data, value }: CustomCellRendererProps<Organization, string>) {
  const me = useCurrentUser();
  if (!data) return null;
  return (
    <span className="organization-name-cell">
      <span>{value}</span>
      {isAdminOf(me, data.id) ? (
        <span className="badge badge-admin" data-testid="organization-admin-badge">
          <FormattedMessage id="organizations.adminBadge" />
        </span>
      ) : null}
    </span>
  );
}
