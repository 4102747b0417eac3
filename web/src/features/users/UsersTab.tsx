import type { User } from '@eelarve/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColDef } from 'ag-grid-community';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { useId, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PlusIcon, SearchIcon } from '../../components/icons';
import { DataGrid } from '../../grid/DataGrid';
import { DEFAULT_DATE_FORMAT, formatDate } from '../../i18n/format';
import { useLocale } from '../../i18n/I18nProvider';
import { useCurrentUser } from '../auth/hooks';
import { IconAction } from '../roles/IconAction';
import { CheckCircleIcon, DashIcon, EditIcon, KeyOffIcon, MailIcon, TrashIcon } from '../roles/icons';
import { Chips } from '../roles/PrivilegeChips';
import { canEditUsers, isPlatformAdmin } from './access';
import { deleteUser, fetchUsers, refreshAccounts, removeAuthMethods, userKeys } from './api';
import { UserModal } from './UserModal';

type ModalState = { mode: 'add' } | { mode: 'edit'; user: User } | null;

interface UsersGridContext {
  meId: string;
  organizationId: string;
  canEdit: boolean;
  /** IS_ADMIN: may remove other users' authentication methods. */
  platformAdmin: boolean;
  onEdit: (user: User) => void;
  onDelete: (user: User) => void;
  onRemoveAuth: (user: User) => void;
}

/** /users: the organisation's users (spec 1, section 2). */
export function UsersTab() {
  const intl = useIntl();
  const { locale } = useLocale();
  const me = useCurrentUser();
  const organizationId = me.organizationId ?? '';
  const canEdit = canEditUsers(me);
  const showAdminActions = isPlatformAdmin(me);
  const queryClient = useQueryClient();
  const searchId = useId();
  const [search, setSearch] = useState('');
  const [modal, setModal] = useState<ModalState>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const [removingAuth, setRemovingAuth] = useState<User | null>(null);

  const users = useQuery({ queryKey: userKeys.list(organizationId), queryFn: () => fetchUsers(organizationId) });
  const dateTimeFormat = `${me.organizationLocaleSettings?.dateFormat ?? DEFAULT_DATE_FORMAT} HH:mm`;

  const remove = useMutation({
    mutationFn: (user: User) => deleteUser(organizationId, user.id),
    onSuccess: async () => {
      await refreshAccounts(queryClient, organizationId, false);
      setDeleting(null);
    },
  });

  const removeAuth = useMutation({
    mutationFn: (user: User) => removeAuthMethods(user.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: userKeys.list(organizationId) });
      setRemovingAuth(null);
    },
  });

  const rows = useMemo(() => {
    const needle = search.trim().toLocaleLowerCase(locale);
    const all = users.data ?? [];
    if (!needle) return all;
    return all.filter((user) =>
      [user.name, user.email, ...user.occupations.map((occupation) => occupation.name)].some((text) =>
        text.toLocaleLowerCase(locale).includes(needle),
      ),
    );
  }, [users.data, search, locale]);

  const columns = useMemo<ColDef<User>[]>(() => {
    const text = (a: string, b: string) => a.localeCompare(b, locale, { sensitivity: 'base' });
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
      definitions.push({
        colId: 'actions',
        headerName: intl.formatMessage({ id: 'users.column.actions' }),
        headerClass: 'visually-hidden-header',
        width: showAdminActions ? 140 : 104,
        sortable: false,
        resizable: false,
        cellRenderer: UserActionsCell,
        cellClass: 'actions-cell',
      });
    }
    return definitions;
  }, [intl, locale, dateTimeFormat, canEdit, showAdminActions]);

  const context = useMemo<UsersGridContext>(
    () => ({
      meId: me.id,
      organizationId,
      canEdit,
      platformAdmin: showAdminActions,
      onEdit: (user) => setModal({ mode: 'edit', user }),
      onDelete: (user) => {
        remove.reset();
        setDeleting(user);
      },
      onRemoveAuth: (user) => {
        removeAuth.reset();
        setRemovingAuth(user);
      },
    }),
    [me.id, organizationId, canEdit, showAdminActions, remove.reset, removeAuth.reset],
  );

  return (
    <section className="users-tab" data-testid="users-tab">
      <div className="toolbar">
        <div className="toolbar-start">
          <div className="search-box">
            <label htmlFor={searchId} className="visually-hidden">
              <FormattedMessage id="users.search" />
            </label>
            <SearchIcon />
            <input
              id={searchId}
              type="search"
              value={search}
              placeholder={intl.formatMessage({ id: 'users.search' })}
              onChange={(event) => setSearch(event.target.value)}
              data-testid="users-search"
            />
          </div>
          {users.data ? (
            <span className="muted" data-testid="users-count">
              <FormattedMessage id="users.count" values={{ count: rows.length }} />
            </span>
          ) : null}
        </div>
        {canEdit ? (
          <button type="button" className="button button-primary" onClick={() => setModal({ mode: 'add' })} data-testid="users-add">
            <PlusIcon />
            <FormattedMessage id="users.add" />
          </button>
        ) : null}
      </div>

      {users.isError ? <ErrorAlert error={users.error} title={<FormattedMessage id="users.loadFailed" />} /> : null}

      <DataGrid<User>
        testId="users-grid"
        height="70vh"
        rowData={users.isPending ? null : rows}
        loading={users.isPending}
        columnDefs={columns}
        context={context}
        getRowId={({ data }) => data.id}
        rowClassRules={{ 'row-admin': ({ data }) => data?.isAdmin === true }}
        tooltipShowDelay={400}
      />

      {modal ? (
        <UserModal
          key={modal.mode === 'edit' ? modal.user.id : 'new'}
          user={modal.mode === 'edit' ? modal.user : null}
          onClose={() => setModal(null)}
        />
      ) : null}

      {deleting ? (
        <ConfirmDialog
          testId="user-delete-dialog"
          danger
          title={<FormattedMessage id="users.delete.title" />}
          message={<FormattedMessage id="users.delete.question" values={{ name: deleting.name }} />}
          confirmLabel={<FormattedMessage id="common.delete" />}
          busy={remove.isPending}
          onCancel={() => setDeleting(null)}
          onConfirm={() => remove.mutate(deleting)}
          error={
            remove.isError ? (
              <ErrorAlert error={remove.error} title={<FormattedMessage id="users.delete.failed" />} testId="user-delete-error" />
            ) : null
          }
        />
      ) : null}

      {removingAuth ? (
        <ConfirmDialog
          testId="user-remove-auth-dialog"
          danger
          title={<FormattedMessage id="users.removeAuth.title" />}
          message={<FormattedMessage id="users.removeAuth.question" values={{ name: removingAuth.name }} />}
          confirmLabel={<FormattedMessage id="users.removeAuth.confirm" />}
          busy={removeAuth.isPending}
          onCancel={() => setRemovingAuth(null)}
          onConfirm={() => removeAuth.mutate(removingAuth)}
          error={
            removeAuth.isError ? (
              <ErrorAlert
                error={removeAuth.error}
                title={<FormattedMessage id="users.removeAuth.failed" />}
                testId="user-remove-auth-error"
              />
            ) : null
          }
        />
      ) : null}
    </section>
  );
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
