import type { Organization } from '@eelarve/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColDef } from 'ag-grid-community';
import { useCallback, useId, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PlusIcon, SearchIcon } from '../../components/icons';
import { DataGrid } from '../../grid/DataGrid';
import { DEFAULT_DATE_FORMAT, formatDate } from '../../i18n/format';
import { useLocale } from '../../i18n/I18nProvider';
import { useCurrentUser } from '../auth/hooks';
import { AdminChangeDialog, type AdminChange } from './AdminChangeDialog';
import { deleteOrganization, fetchOrganizations, organizationKeys } from './api';
import { OrganizationModal } from './OrganizationModal';
import { OrganizationNameCell, type OrganizationGridContext, RowMenuCell } from './RowMenuCell';

type ModalState = { mode: 'add' } | { mode: 'edit'; organization: Organization } | null;

/** Administration, organisations tab (spec 1, section 2). */
export function OrganizationsTab() {
  const intl = useIntl();
  const { locale } = useLocale();
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const searchId = useId();
  const [search, setSearch] = useState('');
  const [modal, setModal] = useState<ModalState>(null);
  const [deleting, setDeleting] = useState<Organization | null>(null);
  const [adminChange, setAdminChange] = useState<AdminChange | null>(null);

  const organizations = useQuery({ queryKey: organizationKeys.list(), queryFn: fetchOrganizations });
  const dateFormat = me.organizationLocaleSettings?.dateFormat ?? DEFAULT_DATE_FORMAT;

  const remove = useMutation({
    mutationFn: (organization: Organization) => deleteOrganization(organization.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: organizationKeys.all });
      setDeleting(null);
    },
  });

  const rows = useMemo(() => {
    const needle = search.trim().toLocaleLowerCase(locale);
    const all = organizations.data ?? [];
    return needle ? all.filter((organization) => organization.name.toLocaleLowerCase(locale).includes(needle)) : all;
  }, [organizations.data, search, locale]);

  const columns = useMemo<ColDef<Organization>[]>(
    () => [
      {
        colId: 'name',
        field: 'name',
        headerName: intl.formatMessage({ id: 'organizations.column.name' }),
        flex: 2,
        minWidth: 220,
        sort: 'asc',
        comparator: (a: string, b: string) => a.localeCompare(b, locale, { sensitivity: 'base' }),
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
      {
        colId: 'actions',
        headerName: intl.formatMessage({ id: 'organizations.column.actions' }),
        headerClass: 'visually-hidden-header',
        width: 72,
        sortable: false,
        resizable: false,
        cellRenderer: RowMenuCell,
        cellClass: 'actions-cell',
      },
    ],
    [intl, locale, dateFormat],
  );

  const onEdit = useCallback((organization: Organization) => setModal({ mode: 'edit', organization }), []);
  const onDelete = useCallback(
    (organization: Organization) => {
      remove.reset();
      setDeleting(organization);
    },
    [remove.reset],
  );
  const context = useMemo<OrganizationGridContext>(
    () => ({
      onEdit,
      onDelete,
      onSetAdmin: (organization) => setAdminChange({ kind: 'set', organization }),
      onRemoveAdmin: (organization) => setAdminChange({ kind: 'remove', organization }),
    }),
    [onEdit, onDelete],
  );

  return (
    <section className="organizations" data-testid="organizations-tab">
      <div className="toolbar">
        <div className="search-box">
          <label htmlFor={searchId} className="visually-hidden">
            <FormattedMessage id="organizations.search" />
          </label>
          <SearchIcon />
          <input
            id={searchId}
            type="search"
            value={search}
            placeholder={intl.formatMessage({ id: 'organizations.search' })}
            onChange={(event) => setSearch(event.target.value)}
            data-testid="organizations-search"
          />
        </div>
        <button type="button" className="button button-primary" onClick={() => setModal({ mode: 'add' })} data-testid="organizations-add">
          <PlusIcon />
          <FormattedMessage id="organizations.add" />
        </button>
      </div>

      {organizations.isError ? (
        <ErrorAlert error={organizations.error} title={<FormattedMessage id="organizations.loadFailed" />} />
      ) : null}

      <DataGrid<Organization>
        testId="organizations-grid"
        height="70vh"
        rowData={organizations.isPending ? null : rows}
        loading={organizations.isPending}
        columnDefs={columns}
        context={context}
        getRowId={({ data }) => data.id}
      />

      {modal ? (
        <OrganizationModal
          key={modal.mode === 'edit' ? modal.organization.id : 'new'}
          organization={modal.mode === 'edit' ? modal.organization : null}
          onClose={() => setModal(null)}
        />
      ) : null}

      {adminChange ? <AdminChangeDialog change={adminChange} onClose={() => setAdminChange(null)} /> : null}

      {deleting ? (
        <ConfirmDialog
          testId="organization-delete-dialog"
          danger
          title={<FormattedMessage id="organizations.delete.title" />}
          message={<FormattedMessage id="organizations.delete.question" values={{ name: deleting.name }} />}
          confirmLabel={<FormattedMessage id="common.delete" />}
          busy={remove.isPending}
          onCancel={() => setDeleting(null)}
          onConfirm={() => remove.mutate(deleting)}
          error={
            remove.isError ? (
              <ErrorAlert
                error={remove.error}
                title={<FormattedMessage id="organizations.delete.failed" />}
                testId="organization-delete-error"
              />
            ) : null
          }
        />
      ) : null}
    </section>
  );
}
