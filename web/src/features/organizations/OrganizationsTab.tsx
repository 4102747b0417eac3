import type { Organization } from '@eelarve/shared';
import type { ColDef } from 'ag-grid-community';
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmActionDialog, useConfirmAction } from '../../components/ConfirmAction';
import { useCrudModal } from '../../components/useCrudModal';
import { actionsColumn, textComparator } from '../../grid/columns';
import { GridToolbar } from '../../grid/GridToolbar';
import { QueryGrid } from '../../grid/QueryGrid';
import { useGridSearch } from '../../grid/search';
import { DEFAULT_DATE_FORMAT, formatDate } from '../../i18n/format';
import { useLocale } from '../../i18n/I18nProvider';
import { useCurrentUser } from '../../app/session';
import { AdminChangeDialog, type AdminChange } from './AdminChangeDialog';
import { deleteOrganization, useOrganizations, useRefreshOrganizations } from './api';
import { OrganizationModal } from './OrganizationModal';
import { OrganizationNameCell, type OrganizationGridContext, RowMenuCell } from './RowMenuCell';

/** Administration, organisations tab (spec 1, section 2). */
export function OrganizationsTab() {
  const intl = useIntl();
  const { locale } = useLocale();
  const me = useCurrentUser();
  const modal = useCrudModal<Organization>();
  const [adminChange, setAdminChange] = useState<AdminChange | null>(null);

  const organizations = useOrganizations();
  const refreshOrganizations = useRefreshOrganizations();
  const dateFormat = me.organizationLocaleSettings?.dateFormat ?? DEFAULT_DATE_FORMAT;
  const { search, setSearch, rows } = useGridSearch(organizations.data, organizationSearchTexts);

  const remove = useConfirmAction({
    run: (organization: Organization) => deleteOrganization(organization.id),
    onDone: refreshOrganizations,
  });

  const columns = useMemo<ColDef<Organization>[]>(
    () => [
      {
        colId: 'name',
        field: 'name',
        headerName: intl.formatMessage({ id: 'organizations.column.name' }),
        flex: 2,
        minWidth: 220,
        sort: 'asc',
        comparator: textComparator(locale),
        cellRenderer: OrganizationNameCell,
      },
      {
        colId: 'createdAt',
        field: 'createdAt',
        headerName: intl.formatMessage({ id: 'organizations.column.createdAt' }),
        width: 170,
        valueFormatter: ({ value }) => formatDate(value as string | null, dateFormat),
      },
      {
        colId: 'nrOfUsers',
        field: 'nrOfUsers',
        headerName: intl.formatMessage({ id: 'organizations.column.nrOfUsers' }),
        width: 170,
        type: 'numericColumn',
        valueFormatter: ({ value }) => (value === null || value === undefined ? '-' : String(value)),
      },
      {
        colId: 'allowedAuthenticationTypes',
        headerName: intl.formatMessage({ id: 'organizations.column.authenticationTypes' }),
        flex: 2,
        minWidth: 240,
        valueGetter: ({ data }) =>
          (data?.allowedAuthenticationTypes ?? [])
            .filter((type) => type !== 'BASIC')
            .map((type) => intl.formatMessage({ id: `authType.${type}` }))
            .join(', '),
      },
      actionsColumn(intl.formatMessage({ id: 'organizations.column.actions' }), 72, RowMenuCell),
    ],
    [intl, locale, dateFormat],
  );

  const context = useMemo<OrganizationGridContext>(
    () => ({
      onEdit: modal.openEdit,
      onDelete: remove.ask,
      onSetAdmin: (organization) => setAdminChange({ kind: 'set', organization }),
      onRemoveAdmin: (organization) => setAdminChange({ kind: 'remove', organization }),
    }),
    [modal.openEdit, remove.ask],
  );

  return (
    <section className="organizations" data-testid="organizations-tab">
      <GridToolbar
        searchLabel="organizations.search"
        search={search}
        onSearch={setSearch}
        searchTestId="organizations-search"
        add={{ label: 'organizations.add', testId: 'organizations-add', onClick: modal.openAdd }}
      />

      <QueryGrid<Organization>
        query={organizations}
        rows={rows}
        loadFailed="organizations.loadFailed"
        testId="organizations-grid"
        height="70vh"
        columnDefs={columns}
        context={context}
      />

      {modal.isOpen ? <OrganizationModal key={modal.item?.id ?? 'new'} organization={modal.item} onClose={modal.close} /> : null}

      {adminChange ? <AdminChangeDialog change={adminChange} onClose={() => setAdminChange(null)} /> : null}

      <ConfirmActionDialog
        action={remove}
        testId="organization-delete-dialog"
        title={<FormattedMessage id="organizations.delete.title" />}
        message={(organization) => <FormattedMessage id="organizations.delete.question" values={{ name: organization.name }} />}
        confirmLabel={<FormattedMessage id="common.delete" />}
        failedTitle={<FormattedMessage id="organizations.delete.failed" />}
        errorTestId="organization-delete-error"
      />
    </section>
  );
}

const organizationSearchTexts = (organization: Organization) => [organization.name];
