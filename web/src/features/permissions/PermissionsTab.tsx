import { hasAnyPrivilege, type Occupation, type PermissionInput } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import type { ColDef } from 'ag-grid-community';
import { useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../app/session';
import { Alert } from '../../components/Alert';
import { SelectField } from '../../components/form';
import { useToasts } from '../../components/Toasts';
import { DataGrid } from '../../grid/DataGrid';
import { ListError } from '../../grid/ListError';
import { occupationPermissionsQuery, useChangePermissions, useDocumentBudgets, useOccupations } from './api';
import { CopyPermissionsModal } from './CopyPermissionsModal';
import { DocumentSchemeSelects, useDocumentAndScheme } from './DocumentSchemeSelects';
import { type GrantAction, type GrantGridContext, type GrantRow, grantColumns } from './GrantCells';
import { allUpdate, bulkChange, grantIndex, readChange, toggleState, updateChange } from './grants';
import { ResourceNameCell, type TreeGridContext, type TreeRowData } from './ResourceNameCell';
import { pickValid, useOpenSubBudgets, useQueryStringSelections } from './selection';
import { flattenTree } from './tree';
import './permissions.css';

type Row = GrantRow & TreeRowData;
type Context = GrantGridContext<Row> & TreeGridContext<Row> & { onBulk: () => void };

const occupationLabel = (occupation: Occupation) => `${occupation.name} (${occupation.userName})`;

/**
 * /users/permissions (spec 1, sections 2 and 6): one occupation's read and update over the
 * organisation, its documents, the chosen document's budgets and their sub-budgets in the chosen
 * scheme. The occupation, document and scheme are kept in the query string. USER_ADMIN changes
 * grants and copies them from another occupation; USER_VIEW only looks.
 */
export function PermissionsTab() {
  const me = useCurrentUser();
  const intl = useIntl();
  const { showError } = useToasts();
  const organizationId = me.organizationId ?? '';
  const canEdit = hasAnyPrivilege(me.privileges, 'USER_ADMIN');
  const [params, setParams] = useSearchParams();
  const [openBudgetIds, setOpenBudgetIds] = useState<ReadonlySet<string>>(new Set());
  const [copying, setCopying] = useState(false);
  const [copied, setCopied] = useState(false);

  const occupations = useOccupations(organizationId);
  const occupationId = pickValid(
    params.get('occupationId'),
    occupations.data?.map((occupation) => occupation.id),
  );
  const selection = useDocumentAndScheme(organizationId, params);
  const { documents, documentId, schemes, schemeId } = selection;
  useQueryStringSelections({ occupationId, documentId, schemaId: schemeId });

  const budgets = useDocumentBudgets(documentId ?? '');
  const subBudgets = useOpenSubBudgets(openBudgetIds, schemeId);
  const organizationGrants = useQuery(occupationPermissionsQuery(occupationId ?? '', null));
  const documentGrants = useQuery({ ...occupationPermissionsQuery(occupationId ?? '', documentId ?? null), enabled: Boolean(occupationId && documentId) });

  const change = useChangePermissions({ onError: showError });
  const selectedOccupation = occupations.data?.find((occupation) => occupation.id === occupationId);
  const holdsAll = selectedOccupation?.type === 'ADMIN';
  const editable = canEdit && !change.isPending && !holdsAll;

  const rows = useMemo<Row[]>(() => {
    const grantOf = grantIndex([...(organizationGrants.data ?? []), ...(documentGrants.data ?? [])]);
    const tree = flattenTree({
      organizationName: me.organizationName ?? '',
      documents: documents.data ?? [],
      documentId: documentId ?? null,
      budgets: budgets.data?.map((budget) => ({ id: budget.id, name: budget.name, holdsSubBudgets: budget.type === 'COMMON' })),
      subBudgets,
      openBudgetIds,
      schemeChosen: Boolean(schemeId),
    });
    return tree.map((node) => ({ id: node.id, label: node.name, tree: node, grant: grantOf(node.resource), editable, holdsAll }));
  }, [
    organizationGrants.data,
    documentGrants.data,
    me.organizationName,
    documents.data,
    documentId,
    budgets.data,
    subBudgets,
    openBudgetIds,
    schemeId,
    editable,
    holdsAll,
  ]);

  const send = (permissions: PermissionInput[]) => {
    if (occupationId && permissions.length > 0) change.mutate([{ occupationId, permissions }]);
  };

  // Every ancestor of a row is in the tree, so removing all grants shown leaves nothing inherited.
  const bulk = bulkChange(
    rows.map((row) => ({ resource: row.tree.resource, grant: row.grant })),
    () => false,
  );
  const allHaveUpdate = allUpdate(rows.map((row) => row.grant));

  // Handlers read the latest state through a stable object (the grid keeps its context).
  const contextRef = useRef<Context | null>(null);
  const handlers: Context = {
    onToggle: (row: Row, action: GrantAction, checked: boolean) =>
      send([action === 'read' ? readChange(row.tree.resource, checked) : updateChange(row.tree.resource, checked, toggleState(row.grant))]),
    onOpen: (row: Row, open: boolean) =>
      setOpenBudgetIds((current) => {
        const next = new Set(current);
        if (open) next.add(row.tree.resource.budgetId ?? '');
        else next.delete(row.tree.resource.budgetId ?? '');
        return next;
      }),
    onBulk: () => send(bulk),
  };
  if (contextRef.current) Object.assign(contextRef.current, handlers);
  else contextRef.current = handlers;

  const columns = useMemo<ColDef<Row>[]>(
    () => [
      {
        colId: 'resource',
        headerName: intl.formatMessage({ id: 'permissions.column.resource' }),
        flex: 1,
        minWidth: 320,
        sortable: false,
        cellRenderer: ResourceNameCell,
      },
      ...grantColumns<Row>(
        { read: intl.formatMessage({ id: 'permissions.column.read' }), update: intl.formatMessage({ id: 'permissions.column.update' }) },
        {
          checked: allHaveUpdate,
          disabled: !editable || bulk.length === 0,
          title: intl.formatMessage({ id: allHaveUpdate ? 'permissions.header.removeAll' : 'permissions.header.grantAll' }),
          onToggle: () => contextRef.current?.onBulk(),
          testId: 'permissions-header-toggle',
        },
      ),
    ],
    [intl, allHaveUpdate, editable, bulk.length],
  );

  const failed = [occupations, documents, organizationGrants, documentGrants, budgets, schemes].find((query) => query.isError);
  const choose = (key: 'occupationId' | 'documentId' | 'schemaId', value: string) => {
    setCopied(false);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(key, value);
        // Another document has other schemes: its first is taken.
        if (key === 'documentId') next.delete('schemaId');
        return next;
      },
      { replace: true },
    );
  };

  return (
    <section className="permissions-tab" data-testid="permissions-tab">
      <div className="permissions-toolbar">
        <SelectField
          labelId="permissions.field.occupation"
          value={occupationId ?? ''}
          onChange={(value) => choose('occupationId', value)}
          options={(occupations.data ?? []).map((occupation) => ({ value: occupation.id, label: occupationLabel(occupation) }))}
          disabled={!occupations.data?.length}
          testId="permissions-occupation"
        />
        <DocumentSchemeSelects selection={selection} onChoose={choose} testIdPrefix="permissions" />
        <span className="permissions-spacer" />
        {canEdit && selectedOccupation && !holdsAll ? (
          <button type="button" className="button" onClick={() => setCopying(true)} data-testid="permissions-copy">
            <FormattedMessage id="permissions.copy.open" />
          </button>
        ) : null}
      </div>
      {copied ? (
        <Alert kind="success" testId="permissions-copied">
          <FormattedMessage id="permissions.copy.done" />
        </Alert>
      ) : null}
      {holdsAll ? (
        <Alert kind="info" testId="permissions-admin-occupation">
          <FormattedMessage id="permissions.adminOccupation" />
        </Alert>
      ) : null}
      {occupations.data?.length === 0 ? (
        <Alert kind="info" testId="permissions-no-occupations">
          <FormattedMessage id="permissions.noOccupations" />
        </Alert>
      ) : null}
      {failed ? (
        <ListError
          error={failed.error}
          title={<FormattedMessage id="permissions.loadFailed" />}
          onRetry={() => void failed.refetch()}
          testId="permissions-load-error"
        />
      ) : null}
      <DataGrid<Row>
        testId="permissions-grid"
        height="60vh"
        rowData={occupationId === undefined || documents.isPending ? null : rows}
        loading={organizationGrants.isPending && Boolean(occupationId)}
        getRowId={({ data }) => data.id}
        columnDefs={columns}
        context={contextRef.current}
      />
      {copying && selectedOccupation ? (
        <CopyPermissionsModal
          target={selectedOccupation}
          occupations={occupations.data ?? []}
          onClose={() => setCopying(false)}
          onCopied={() => setCopied(true)}
        />
      ) : null}
    </section>
  );
}
