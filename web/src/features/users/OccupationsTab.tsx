import type { Occupation } from '@eelarve/shared';
import type { ColDef } from 'ag-grid-community';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmActionDialog, useConfirmAction } from '../../components/ConfirmAction';
import { useCrudModal } from '../../components/useCrudModal';
import { actionsColumn, textComparator } from '../../grid/columns';
import { GridToolbar } from '../../grid/GridToolbar';
import { QueryGrid } from '../../grid/QueryGrid';
import { useGridSearch } from '../../grid/search';
import { useLocale } from '../../i18n/I18nProvider';
import { useCurrentUser } from '../../app/session';
import { IconAction } from '../../components/IconAction';
import { EditIcon, ShieldIcon, TrashIcon } from '../../components/icons';
import { Chips } from '../../components/Chips';
import '../../components/list-cells.css';
import { canEditUsers } from './access';
import { deleteOccupation, useOccupations, useRefreshAccounts } from './api';
import { OccupationModal } from './OccupationModal';

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
  const modal = useCrudModal<Occupation>();

  const occupations = useOccupations(organizationId);
  const refreshAccounts = useRefreshAccounts(organizationId);
  const { search, setSearch, rows } = useGridSearch(occupations.data, occupationSearchTexts);

  const remove = useConfirmAction({
    run: (occupation: Occupation) => deleteOccupation(occupation.id),
    onDone: (occupation) => refreshAccounts(occupation.userId === me.id),
  });

  const columns = useMemo<ColDef<Occupation>[]>(() => {
    const text = textComparator(locale);
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
      definitions.push(actionsColumn(intl.formatMessage({ id: 'occupations.column.actions' }), 104, OccupationActionsCell));
    }
    return definitions;
  }, [intl, locale, canEdit]);

  const context = useMemo<OccupationsGridContext>(
    () => ({
      canEdit,
      onEdit: modal.openEdit,
      onDelete: remove.ask,
    }),
    [canEdit, modal.openEdit, remove.ask],
  );

  return (
    <section className="occupations-tab" data-testid="occupations-tab">
      <GridToolbar
        searchLabel="occupations.search"
        search={search}
        onSearch={setSearch}
        searchTestId="occupations-search"
        add={canEdit ? { label: 'occupations.add', testId: 'occupations-add', onClick: modal.openAdd } : undefined}
      />

      <QueryGrid<Occupation>
        query={occupations}
        rows={rows}
        loadFailed="occupations.loadFailed"
        testId="occupations-grid"
        height="70vh"
        columnDefs={columns}
        context={context}
        rowClassRules={{ 'row-admin': ({ data }) => data?.type === 'ADMIN' }}
        tooltipShowDelay={400}
      />

      {modal.isOpen ? <OccupationModal key={modal.item?.id ?? 'new'} occupation={modal.item} onClose={modal.close} /> : null}

      <ConfirmActionDialog
        action={remove}
        testId="occupation-delete-dialog"
        title={<FormattedMessage id="occupations.delete.title" />}
        message={(occupation) => <FormattedMessage id="occupations.delete.question" values={{ name: occupation.name, user: occupation.userName }} />}
        confirmLabel={<FormattedMessage id="common.delete" />}
        failedTitle={<FormattedMessage id="occupations.delete.failed" />}
        errorTestId="occupation-delete-error"
      />
    </section>
  );
}

const occupationSearchTexts = (occupation: Occupation) => [
  occupation.name,
  occupation.userName,
  occupation.description,
  ...occupation.roles.map((role) => role.name),
];

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
