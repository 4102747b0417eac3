import type { Organization } from '@eelarve/shared';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { FormattedMessage, useIntl } from 'react-intl';
import { DropdownMenu } from '../../components/DropdownMenu';
import { MoreIcon } from '../../components/icons';

export interface OrganizationGridContext {
  onEdit: (organization: Organization) => void;
  onDelete: (organization: Organization) => void;
}

/** The row menu of the organisations table: edit and delete (set/remove admin comes later). */
export function RowMenuCell({ data, context }: CustomCellRendererProps<Organization, unknown, OrganizationGridContext>) {
  const intl = useIntl();
  if (!data) return null;
  return (
    <div className="row-menu-cell">
      <DropdownMenu
        label={intl.formatMessage({ id: 'organizations.rowMenu' }, { name: data.name })}
        testId="organization-row-menu"
        items={[
          {
            key: 'edit',
            label: <FormattedMessage id="common.edit" />,
            onSelect: () => context.onEdit(data),
            testId: 'organization-edit',
          },
          {
            key: 'delete',
            label: <FormattedMessage id="common.delete" />,
            onSelect: () => context.onDelete(data),
            danger: true,
            testId: 'organization-delete',
          },
        ]}
      >
        <MoreIcon />
      </DropdownMenu>
    </div>
  );
}
