import type { User } from '@eelarve/shared';
import type { ColDef } from 'ag-grid-community';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Chips } from '../../components/Chips';
import { IconAction } from '../../components/IconAction';
import { CheckCircleIcon, DashIcon, EditIcon, KeyOffIcon, MailIcon, TrashIcon } from '../../components/icons';
import { actionsColumn, textComparator } from '../../grid/columns';
import { formatDate } from '../../i18n/format';
import { useLocale } from '../../i18n/I18nProvider';

export interface UsersGridContext {
  meId: string;
  organizationId: string;
  canEdit: boolean;
  /** IS_ADMIN: may remove other users' authentication methods. */
  platformAdmin: boolean;
  onEdit: (user: User) => void;
  onDelete: (user: User) => void;
  onRemoveAuth: (user: User) => void;
}

/** The users grid's columns (spec 1, section 2); the actions column only for those who may act. */
export function useUserColumns({ dateTimeFormat, canEdit, showAdminActions }: { dateTimeFormat: string; canEdit: boolean; showAdminActions: boolean }) {
  const intl = useIntl();
  const { locale } = useLocale();
  return useMemo<ColDef<User>[]>(() => {
    const text = textComparator(locale);
    const definitions: ColDef<User>[] = [
      {
        colId: 'name',
        field: 'name',
        headerName: intl.formatMessage({ id: 'users.column.name' }),
        flex: 1.3,
        minWidth: 190,
        sort: 'asc',
        comparator: text,
        cellRenderer: UserNameCell,
      },
      {
        colId: 'email',
        field: 'email',
        headerName: intl.formatMessage({ id: 'users.column.email' }),
        flex: 1.4,
        minWidth: 210,
        comparator: text,
      },
      {
        colId: 'occupations',
        headerName: intl.formatMessage({ id: 'users.column.occupations' }),
        flex: 1.6,
        minWidth: 220,
        sortable: false,
        autoHeight: true,
        cellClass: 'chips-cell',
        valueGetter: ({ data }) => data?.occupations.map((occupation) => occupation.name).join(', ') ?? '',
        cellRenderer: ({ data }: CustomCellRendererProps<User>) =>
          data ? (
            <Chips
              items={data.occupations.map((occupation) => ({ key: occupation.id, label: occupation.name, strong: occupation.type === 'ADMIN' }))}
              testId="user-occupations"
            />
          ) : null,
      },
      {
        colId: 'status',
        headerName: intl.formatMessage({ id: 'users.column.status' }),
        width: 160,
        valueGetter: ({ data }) => (data?.confirmedAt ? 'confirmed' : 'invited'),
        cellRenderer: StatusCell,
      },
      {
        colId: 'mfa',
        headerName: intl.formatMessage({ id: 'users.column.mfa' }),
        headerTooltip: intl.formatMessage({ id: 'users.column.mfaLong' }),
        width: 120,
        valueGetter: ({ data }) => data?.mfaAdded ?? false,
        cellRenderer: FlagCell,
      },
      {
        colId: 'electronicId',
        headerName: intl.formatMessage({ id: 'users.column.electronicId' }),
        width: 120,
        valueGetter: ({ data }) => data?.hasPersonalCode ?? false,
        cellRenderer: FlagCell,
      },
      {
        colId: 'lastSignIn',
        // The most recent sign-in: the current one (the previous one for a user signed in before).
        valueGetter: ({ data }) => data?.currentSignInAt ?? data?.lastSignInAt ?? null,
        headerName: intl.formatMessage({ id: 'users.column.lastSignIn' }),
        width: 200,
        valueFormatter: ({ value }) => (value ? formatDate(value as string, dateTimeFormat) : '–'),
        tooltipValueGetter: ({ value }) => (value ? undefined : intl.formatMessage({ id: 'users.never' })),
      },
    ];
    if (canEdit || showAdminActions) {
      definitions.push(actionsColumn(intl.formatMessage({ id: 'users.column.actions' }), showAdminActions ? 140 : 104, UserActionsCell));
    }
    return definitions;
  }, [intl, locale, dateTimeFormat, canEdit, showAdminActions]);
}

function UserNameCell({ data, value, context }: CustomCellRendererProps<User, string, UsersGridContext>) {
  if (!data) return null;
  return (
    <span className="role-name-cell">
      <span className="role-name" data-testid="user-name">
        {value}
      </span>
      {data.id === context.meId ? (
        <span className="badge" data-testid="user-self">
          <FormattedMessage id="users.self" />
        </span>
      ) : null}
    </span>
  );
}

function StatusCell({ data }: CustomCellRendererProps<User>) {
  if (!data) return null;
  return data.confirmedAt ? (
    <span className="status-pill status-ok" data-testid="user-status" data-status="confirmed">
      <CheckCircleIcon />
      <FormattedMessage id="users.status.confirmed" />
    </span>
  ) : (
    <span className="status-pill status-pending" data-testid="user-status" data-status="invited">
      <MailIcon />
      <FormattedMessage id="users.status.invited" />
    </span>
  );
}

function FlagCell({ value }: CustomCellRendererProps<User, boolean>) {
  return value ? (
    <span className="flag flag-on" data-flag="yes">
      <CheckCircleIcon />
      <FormattedMessage id="users.flag.yes" />
    </span>
  ) : (
    <span className="flag flag-off muted" data-flag="no">
      <DashIcon />
      <FormattedMessage id="users.flag.no" />
    </span>
  );
}

function UserActionsCell({ data, context }: CustomCellRendererProps<User, unknown, UsersGridContext>) {
  const intl = useIntl();
  if (!data) return null;
  // Users with an administrator occupation, and users another organisation registered, are not edited here.
  const locked = data.isAdmin
    ? intl.formatMessage({ id: 'users.action.adminLocked' })
    : data.organizationId !== context.organizationId
      ? intl.formatMessage({ id: 'users.action.otherOrganization' })
      : undefined;
  const deleteBlocked = locked ?? (data.occupations.length > 0 ? intl.formatMessage({ id: 'users.action.hasOccupation' }) : undefined);
  const self = data.id === context.meId;
  return (
    <div className="row-actions">
      {context.canEdit ? (
        <>
          <IconAction
            label={intl.formatMessage({ id: 'users.action.edit' })}
            title={locked}
            disabled={locked !== undefined}
            onClick={() => context.onEdit(data)}
            testId="user-edit"
          >
            <EditIcon />
          </IconAction>
          <IconAction
            label={intl.formatMessage({ id: 'users.action.delete' })}
            title={deleteBlocked}
            disabled={deleteBlocked !== undefined}
            danger
            onClick={() => context.onDelete(data)}
            testId="user-delete"
          >
            <TrashIcon />
          </IconAction>
        </>
      ) : null}
      {context.platformAdmin ? (
        <IconAction
          label={intl.formatMessage({ id: 'users.action.removeAuth' })}
          title={self ? intl.formatMessage({ id: 'users.action.removeAuthSelf' }) : undefined}
          disabled={self}
          onClick={() => context.onRemoveAuth(data)}
          testId="user-remove-auth"
        >
          <KeyOffIcon />
        </IconAction>
      ) : null}
    </div>
  );
}
