import type { User } from '@eelarve/shared';
import { useMemo } from 'react';
import { FormattedMessage } from 'react-intl';
import { ConfirmActionDialog, useConfirmAction } from '../../components/ConfirmAction';
import { useCrudModal } from '../../components/useCrudModal';
import { GridToolbar } from '../../grid/GridToolbar';
import { QueryGrid } from '../../grid/QueryGrid';
import { useGridSearch } from '../../grid/search';
import { DEFAULT_DATE_FORMAT } from '../../i18n/format';
import { useCurrentUser } from '../../app/session';
import '../../components/list-cells.css';
import { canEditUsers, isPlatformAdmin } from './access';
import { deleteUser, removeAuthMethods, useRefreshAccounts, useRefreshUsers, useUsers } from './api';
import { UserModal } from './UserModal';
import { type UsersGridContext, useUserColumns } from './user-columns';

/** /users: the organisation's users (spec 1, section 2). */
export function UsersTab() {
  const me = useCurrentUser();
  const organizationId = me.organizationId ?? '';
  const canEdit = canEditUsers(me);
  const showAdminActions = isPlatformAdmin(me);
  const modal = useCrudModal<User>();

  const users = useUsers(organizationId);
  const refreshAccounts = useRefreshAccounts(organizationId);
  const refreshUsers = useRefreshUsers(organizationId);
  const dateTimeFormat = `${me.organizationLocaleSettings?.dateFormat ?? DEFAULT_DATE_FORMAT} HH:mm`;
  const { search, setSearch, rows } = useGridSearch(users.data, userSearchTexts);

  const remove = useConfirmAction({
    run: (user: User) => deleteUser(organizationId, user.id),
    onDone: () => refreshAccounts(false),
  });

  const removeAuth = useConfirmAction({
    run: (user: User) => removeAuthMethods(user.id),
    onDone: refreshUsers,
  });

  const columns = useUserColumns({ dateTimeFormat, canEdit, showAdminActions });

  const context = useMemo<UsersGridContext>(
    () => ({
      meId: me.id,
      organizationId,
      canEdit,
      platformAdmin: showAdminActions,
      onEdit: modal.openEdit,
      onDelete: remove.ask,
      onRemoveAuth: removeAuth.ask,
    }),
    [me.id, organizationId, canEdit, showAdminActions, modal.openEdit, remove.ask, removeAuth.ask],
  );

  return (
    <section className="users-tab" data-testid="users-tab">
      <GridToolbar
        searchLabel="users.search"
        search={search}
        onSearch={setSearch}
        searchTestId="users-search"
        info={
          users.data ? (
            <span className="muted" data-testid="users-count">
              <FormattedMessage id="users.count" values={{ count: rows.length }} />
            </span>
          ) : null
        }
        add={canEdit ? { label: 'users.add', testId: 'users-add', onClick: modal.openAdd } : undefined}
      />

      <QueryGrid<User>
        query={users}
        rows={rows}
        loadFailed="users.loadFailed"
        testId="users-grid"
        height="70vh"
        columnDefs={columns}
        context={context}
        rowClassRules={{ 'row-admin': ({ data }) => data?.isAdmin === true }}
        tooltipShowDelay={400}
      />

      {modal.isOpen ? <UserModal key={modal.item?.id ?? 'new'} user={modal.item} onClose={modal.close} /> : null}

      <ConfirmActionDialog
        action={remove}
        testId="user-delete-dialog"
        title={<FormattedMessage id="users.delete.title" />}
        message={(user) => <FormattedMessage id="users.delete.question" values={{ name: user.name }} />}
        confirmLabel={<FormattedMessage id="common.delete" />}
        failedTitle={<FormattedMessage id="users.delete.failed" />}
        errorTestId="user-delete-error"
      />

      <ConfirmActionDialog
        action={removeAuth}
        testId="user-remove-auth-dialog"
        title={<FormattedMessage id="users.removeAuth.title" />}
        message={(user) => <FormattedMessage id="users.removeAuth.question" values={{ name: user.name }} />}
        confirmLabel={<FormattedMessage id="users.removeAuth.confirm" />}
        failedTitle={<FormattedMessage id="users.removeAuth.failed" />}
        errorTestId="user-remove-auth-error"
      />
    </section>
  );
}

const userSearchTexts = (user: User) => [user.name, user.email, ...user.occupations.map((occupation) => occupation.name)];
