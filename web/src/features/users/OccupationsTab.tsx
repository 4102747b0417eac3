import type { Occupation } from '@eelarve/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColDef } from 'ag-grid-community';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { useId, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PlusIcon, SearchIcon } from '../../components/icons';
import { DataGrid } from '../../grid/DataGrid';
import { useLocale } from '../../i18n/I18nProvider';
import { useCurrentUser } from '../auth/hooks';
import { IconAction } from '../roles/IconAction';
import { EditIcon, ShieldIcon, TrashIcon } from '../roles/icons';
import { Chips } from '../roles/PrivilegeChips';
import { canEditUsers } from './access';
import { deleteOccupation, fetchOccupations, occupationKeys, refreshAccounts } from './api';
import { OccupationModal } from './OccupationModal';

type ModalState = { mode: 'add' } | { mode: 'edit'; occupation: Occupation } | null;

interface OccupationsGridContext {
  canEdit: boolean;
  onEdit: (occupation: Occupation) => void;
  onDelete: (occupation: Occupation) => void;
}

/** /users/occupations: the organisation's occupations (spec 1, sections 2 and 3). */
export function OccupationsTab() {
  const intl = useIntl();
  const { locale } = useLocale();
  const me = useCurrentUser();
  const organizationId = me.organizationId ?? '';
  const canEdit = canEditUsers(me);
  const queryClient = useQueryClient();
  const searchId = useId();
  const [search, setSearch] = useState('');
  const [modal, setModal] = useState<ModalState>(null);
  const [deleting, setDeleting] = useState<Occupation | null>(null);

  const occupations = useQuery({ queryKey: occupationKeys.list(organizationId), queryFn: () => fetchOccupations(organizationId) });

  const remove = useMutation({
    mutationFn: (occupation: Occupation) => deleteOccupation(occupation.id),
    onSuccess: async (_result, occupation) => {
      await refreshAccounts(queryClient, organizationId, occupation.userId === me.id);
      setDeleting(null);
    },
  });

  const rows = useMemo(() => {
    const needle = search.trim().toLocaleLowerCase(locale);
    const all = occupations.data ?? [];
    if (!needle) return all;
    return all.filter((occupation) =>
      [occupation.name, occupation.userName, occupation.description, ...occupation.roles.map((role) => role.name)].some((text) =>
        text.toLocaleLowerCase(locale).includes(needle),
      ),
    );
  }, [occupations.data, search, locale]);

  const columns = useMemo<ColDef<Occupation>[]>(() => {
    const text = (a: string, b: string) => a.localeCompare(b, locale, { sensitivity: 'base' });
    const definitions: ColDef<Occupation>[] = [
      {
        colId: 'name',
        field: 'name',
        headerName: intl.formatMessage({ id: 'occupations.column.name' }),
        flex: 1.3,
        minWidth: 200,
        sort: 'asc',
        comparator: text,
        cellRenderer: OccupationNameCell,
      },
      {
        colId: 'user',
        field: 'userName',
        headerName: intl.formatMessage({ id: 'occupations.column.user' }),
        flex: 1.2,
        minWidth: 180,
        comparator: text,
      },
      {
        colId: 'roles',
        headerName: intl.formatMessage({ id: 'occupations.column.roles' }),
        flex: 1.8,
        minWidth: 240,
        sortable: false,
        autoHeight: true,
        cellClass: 'chips-cell',
        valueGetter: ({ data }) => data?.roles.map((role) => role.name).join(', ') ?? '',
        cellRenderer: ({ data }: CustomCellRendererProps<Occupation>) =>
          data ? (
            <Chips
              items={data.roles.map((role) => ({ key: role.id, label: role.name, strong: data.type === 'ADMIN' }))}
              empty={<FormattedMessage id="occupations.noRoles" />}
              testId="occupation-roles"
            />
          ) : null,
      },
      {
        colId: 'type',
        field: 'type',
        headerName: intl.formatMessage({ id: 'occupations.column.type' }),
        width: 170,
        cellRenderer: OccupationTypeCell,
      },
      {
        colId: 'description',
        field: 'description',
        headerName: intl.formatMessage({ id: 'occupations.column.description' }),
        flex: 1.5,
        minWidth: 200,
        comparator: text,
        tooltipValueGetter: ({ value }) => (typeof value === 'string' && value.length > 40 ? value : undefined),
      },
    ];
    if (canEdit) {
      definitions.push({
        colId: 'actions',
        headerName: intl.formatMessage({ id: 'occupations.column.actions' }),
        headerClass: 'visually-hidden-header',
        width: 104,
        sortable: false,
        resizable: false,
        cellRenderer: OccupationActionsCell,
        cellClass: 'actions-cell',
      });
    }
    return definitions;
  }, [intl, locale, canEdit]);

  const context = useMemo<OccupationsGridContext>(
    () => ({
      canEdit,
      onEdit: (occupation) => setModal({ mode: 'edit', occupation }),
      onDelete: (occupation) => {
        remove.reset();
        setDeleting(occupation);
      },
    }),
    [canEdit, remove.reset],
  );

  return (
    <section className="occupations-tab" data-testid="occupations-tab">
      <div className="toolbar">
        <div className="search-box">
          <label htmlFor={searchId} className="visually-hidden">
            <FormattedMessage id="occupations.search" />
          </label>
          <SearchIcon />
          <input
            id={searchId}
            type="search"
            value={search}
            placeholder={intl.formatMessage({ id: 'occupations.search' })}
            onChange={(event) => setSearch(event.target.value)}
            data-testid="occupations-search"
          />
        </div>
        {canEdit ? (
          <button type="button" className="button button-primary" onClick={() => setModal({ mode: 'add' })} data-testid="occupations-add">
            <PlusIcon />
            <FormattedMessage id="occupations.add" />
          </button>
        ) : null}
      </div>

      {occupations.isError ? <ErrorAlert error={occupations.error} title={<FormattedMessage id="occupations.loadFailed" />} /> : null}

      <DataGrid<Occupation>
        testId="occupations-grid"
        height="70vh"
        rowData={occupations.isPending ? null : rows}
        loading={occupations.isPending}
        columnDefs={columns}
        context={context}
        getRowId={({ data }) => data.id}
        rowClassRules={{ 'row-admin': ({ data }) => data?.type === 'ADMIN' }}
        tooltipShowDelay={400}
      />

      {modal ? (
        <OccupationModal
          key={modal.mode === 'edit' ? modal.occupation.id : 'new'}
          occupation={modal.mode === 'edit' ? modal.occupation : null}
          onClose={() => setModal(null)}
        />
      ) : null}

      {deleting ? (
        <ConfirmDialog
          testId="occupation-delete-dialog"
          danger
          title={<FormattedMessage id="occupations.delete.title" />}
          message={<FormattedMessage id="occupations.delete.question" values={{ name: deleting.name, user: deleting.userName }} />}
          confirmLabel={<FormattedMessage id="common.delete" />}
          busy={remove.isPending}
          onCancel={() => setDeleting(null)}
          onConfirm={() => remove.mutate(deleting)}
          error={
            remove.isError ? (
              <ErrorAlert error={remove.error} title={<FormattedMessage id="occupations.delete.failed" />} testId="occupation-delete-error" />
            ) : null
          }
        />
      ) : null}
    </section>
  );
}

function OccupationNameCell({ data, value }: CustomCellRendererProps<Occupation, string>) {
  if (!data) return null;
  return (
    <span className="role-name-cell">
      <span className="role-name" data-testid="occupation-name">
        {value}
      </span>
    </span>
  );
}

function OccupationTypeCell({ data }: CustomCellRendererProps<Occupation>) {
  if (!data) return null;
  return data.type === 'ADMIN' ? (
    <span className="badge badge-admin badge-icon" data-testid="occupation-type" data-type="ADMIN">
      <ShieldIcon />
      <FormattedMessage id="occupations.type.ADMIN" />
    </span>
  ) : (
    <span className="muted" data-testid="occupation-type" data-type="DEFAULT">
      <FormattedMessage id="occupations.type.DEFAULT" />
    </span>
  );
}

function OccupationActionsCell({ data, context }: CustomCellRendererProps<Occupation, unknown, OccupationsGridContext>) {
  const intl = useIntl();
  if (!data || !context.canEdit) return null;
  const locked = data.type === 'ADMIN' ? intl.formatMessage({ id: 'occupations.action.adminLocked' }) : undefined;
  return (
    <div className="row-actions">
      <IconAction
        label={intl.formatMessage({ id: 'occupations.action.edit' })}
        title={locked}
        disabled={locked !== undefined}
        onClick={() => context.onEdit(data)}
        testId="occupation-edit"
      >
        <EditIcon />
      </IconAction>
      <IconAction
        label={intl.formatMessage({ id: 'occupations.action.delete' })}
        title={locked}
        disabled={locked !== undefined}
        danger
        onClick={() => context.onDelete(data)}
        testId="occupation-delete"
      >
        <TrashIcon />
      </IconAction>
    </div>
  );
}
