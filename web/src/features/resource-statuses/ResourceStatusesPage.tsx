import { hasAnyPrivilege, type Me, type ResourceStatus, type Role } from '@eelarve/shared';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { rolesQueryOptions } from '../../app/organization/accounts';
import { useCurrentUser } from '../../app/session';
import { Alert } from '../../components/Alert';
import { ConfirmActionDialog } from '../../components/ConfirmAction';
import { IconAction } from '../../components/IconAction';
import { EditIcon, PlusIcon, TrashIcon } from '../../components/icons';
import { resourceStatusName } from '../../components/ResourceStatusSelect';
import { DataGrid } from '../../grid/DataGrid';
import { ListError } from '../../grid/ListError';
import type { MessageKey } from '../../i18n/messages';
import { useDeleteResourceStatus, useResetResourceStatus } from './api/mutations';
import { useResourceStatuses } from './api/queries';
import { ApprovalRouteSection } from './ApprovalRouteSection';
import { StatusModal } from './StatusModal';
import { statusIconGlyph } from '../../components/ResourceStatusSelect';
import { statusLanguageOf } from './status-form';
import './resource-statuses.css';

/** Why the screen is view only (spec 1, section 6), or null when the caller may edit. */
function viewOnlyReason(me: Me): MessageKey | null {
  if (!hasAnyPrivilege(me.privileges, 'STATUS_ADMIN')) return 'statuses.viewOnly.privilege';
  if (!me.organizationAllowResourceStatusEditing) return 'statuses.viewOnly.organization';
  return null;
}

interface StatusActions {
  viewOnly: string | null;
  onEdit: (status: ResourceStatus) => void;
  onReset: (status: ResourceStatus) => void;
  onDelete: (status: ResourceStatus) => void;
}

/** /resource-statuses: the organisation's statuses, default ones first (spec 1, sections 2-8). */
export function ResourceStatusesPage() {
  const intl = useIntl();
  const me = useCurrentUser();
  const organizationId = me.organizationId ?? '';
  const organizationLanguage = me.organizationLocaleSettings?.language;
  const reasonId = viewOnlyReason(me);
  const viewOnly = reasonId ? intl.formatMessage({ id: reasonId }) : null;

  const statuses = useResourceStatuses(organizationId);
  // The role list is read only where the caller may read roles (the server refuses it otherwise):
  // without it, role exceptions show role ids and new ones cannot be chosen.
  // Everyone on this screen holds STATUS_VIEW or STATUS_ADMIN, who may read the roles.
  const roles = useQuery(rolesQueryOptions(organizationId));
  const [editing, setEditing] = useState<ResourceStatus | 'new' | null>(null);
  const reset = useResetResourceStatus();
  const remove = useDeleteResourceStatus();

  const actions: StatusActions = { viewOnly, onEdit: setEditing, onReset: reset.ask, onDelete: remove.ask };
  const columns = useStatusColumns(roles.data ?? [], organizationLanguage);
  const nameOf = (status: ResourceStatus) => resourceStatusName(status, intl.locale, organizationLanguage);

  return (
    <div className="page statuses-page" data-testid="statuses-page">
      <div className="page-header">
        <div className="page-heading">
          <h1 className="page-title">
            <FormattedMessage id="statuses.title" />
          </h1>
          <p className="muted">
            <FormattedMessage id="statuses.subtitle" />
          </p>
        </div>
        <span title={viewOnly ?? undefined}>
          <button type="button" className="button button-primary" disabled={viewOnly !== null} onClick={() => setEditing('new')} data-testid="statuses-add">
            <PlusIcon />
            <FormattedMessage id="statuses.add" />
          </button>
        </span>
      </div>

      {reasonId ? (
        <Alert kind="info" testId="statuses-view-only">
          <FormattedMessage id={reasonId} />
        </Alert>
      ) : null}
      {statuses.isError ? (
        <ListError error={statuses.error} title={<FormattedMessage id="statuses.loadFailed" />} onRetry={() => void statuses.refetch()} />
      ) : null}

      <DataGrid<ResourceStatus>
        testId="statuses-grid"
        height="70vh"
        rowData={statuses.isPending ? null : (statuses.data ?? [])}
        loading={statuses.isPending}
        columnDefs={columns}
        context={actions}
        getRowId={({ data }) => data.id}
      />

      <ApprovalRouteSection
        organizationId={organizationId}
        roles={roles.isPending ? undefined : (roles.data ?? [])}
        statuses={statuses.isPending ? undefined : (statuses.data ?? [])}
        organizationLanguage={organizationLanguage}
        viewOnly={viewOnly}
      />

      {editing ? (
        <StatusModal
          status={editing === 'new' ? null : editing}
          roles={roles.data ?? []}
          organizationLanguage={statusLanguageOf(organizationLanguage)}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmActionDialog
        action={reset}
        testId="status-reset-dialog"
        title={<FormattedMessage id="statuses.reset.title" />}
        message={(status) => <FormattedMessage id="statuses.reset.question" values={{ name: nameOf(status) }} />}
        confirmLabel={<FormattedMessage id="statuses.reset.confirm" />}
        failedTitle={<FormattedMessage id="statuses.reset.failed" />}
        errorTestId="status-reset-error"
      />
      <ConfirmActionDialog
        action={remove}
        testId="status-delete-dialog"
        title={<FormattedMessage id="statuses.delete.title" />}
        message={(status) => <FormattedMessage id="statuses.delete.question" values={{ name: nameOf(status) }} />}
        confirmLabel={<FormattedMessage id="common.delete" />}
        failedTitle={<FormattedMessage id="statuses.delete.failed" />}
        errorTestId="status-delete-error"
      />
    </div>
  );
}

/** The rules in words: each rule's type, with whom it exempts. */
function rulesSummary(status: ResourceStatus, roles: readonly Role[], format: (id: MessageKey) => string): string {
  if (status.rules.length === 0) return format('statuses.noRules');
  const roleName = (id: string) => roles.find((role) => role.id === id)?.name ?? id;
  return status.rules
    .map((rule) => {
      const exempt = [...rule.overridePrivileges.map((privilege) => format(`privilege.${privilege}` as MessageKey)), ...rule.overrideRoles.map(roleName)];
      const type = format(`statuses.rule.${rule.type}` as MessageKey);
      return exempt.length > 0 ? `${type} (${exempt.join(', ')})` : type;
    })
    .join('; ');
}

function useStatusColumns(roles: readonly Role[], organizationLanguage: string | undefined): ColDef<ResourceStatus>[] {
  const intl = useIntl();
  return useMemo(() => {
    const format = (id: MessageKey) => intl.formatMessage({ id });
    return [
      {
        colId: 'icon',
        headerName: format('statuses.column.icon'),
        width: 90,
        valueGetter: ({ data }) => (data ? statusIconGlyph(data.icon) : ''),
        cellRenderer: ({ data, value }: ICellRendererParams<ResourceStatus, string>) => (
          <span className="status-icon" title={data ? format(`statuses.icon.${data.icon}` as MessageKey) : undefined} data-testid="status-icon-cell">
            {value}
          </span>
        ),
      },
      {
        colId: 'name',
        headerName: format('statuses.column.name'),
        flex: 1,
        minWidth: 180,
        valueGetter: ({ data }) => (data ? resourceStatusName(data, intl.locale, organizationLanguage) : ''),
        cellRenderer: ({ data, value }: ICellRendererParams<ResourceStatus, string>) => (
          <span data-testid="status-name">
            {value}
            {data?.readOnly ? (
              <span className="chip status-read-only" title={format('statuses.readOnlyHint')} data-testid="status-read-only">
                {format('statuses.readOnlyBadge')}
              </span>
            ) : null}
          </span>
        ),
      },
      {
        colId: 'description',
        headerName: format('statuses.column.description'),
        flex: 1,
        minWidth: 180,
        valueGetter: ({ data }) => (data ? (data.description as Record<string, string>)[intl.locale] || data.description.et || data.description.en : ''),
        tooltipValueGetter: ({ value }) => value,
      },
      {
        colId: 'rules',
        headerName: format('statuses.column.rules'),
        flex: 1.5,
        minWidth: 220,
        valueGetter: ({ data }) => (data ? rulesSummary(data, roles, format) : ''),
        tooltipValueGetter: ({ value }) => value,
      },
      {
        colId: 'actions',
        headerName: format('statuses.column.actions'),
        width: 150,
        sortable: false,
        cellRenderer: ActionsCell,
      },
    ];
  }, [intl, roles, organizationLanguage]);
}

function ActionsCell({ data, context }: ICellRendererParams<ResourceStatus, unknown, StatusActions>) {
  const intl = useIntl();
  if (!data) return null;
  const { viewOnly } = context;
  const resetTitle = data.resettable ? undefined : intl.formatMessage({ id: 'statuses.action.resetEqual' });
  const deleteTitle = data.readOnly ? intl.formatMessage({ id: 'statuses.readOnlyHint' }) : undefined;
  return (
    <span className="status-actions" data-testid={`status-actions-${data.id}`}>
      <IconAction
        label={intl.formatMessage({ id: 'statuses.action.edit' })}
        title={viewOnly ?? undefined}
        disabled={viewOnly !== null}
        onClick={() => context.onEdit(data)}
        testId="status-edit"
      >
        <EditIcon />
      </IconAction>
      {data.readOnly ? (
        <IconAction
          label={intl.formatMessage({ id: 'statuses.action.reset' })}
          title={viewOnly ?? resetTitle}
          disabled={viewOnly !== null || !data.resettable}
          onClick={() => context.onReset(data)}
          testId="status-reset"
        >
          <span aria-hidden="true">↺</span>
        </IconAction>
      ) : null}
      <IconAction
        label={intl.formatMessage({ id: 'statuses.action.delete' })}
        title={viewOnly ?? deleteTitle}
        disabled={viewOnly !== null || data.readOnly}
        danger
        onClick={() => context.onDelete(data)}
        testId="status-delete"
      >
        <TrashIcon />
      </IconAction>
    </span>
  );
}
