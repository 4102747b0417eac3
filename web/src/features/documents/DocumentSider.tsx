import type { Document, Me } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { type DragEvent, useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useNavigate, useParams } from 'react-router';
import { PlusIcon } from '../../components/icons';
import { Spinner } from '../../components/Spinner';
import { useScrollIntoView } from '../../components/useScrollIntoView';
import { ListError } from '../../grid/ListError';
import { useCurrentUser } from '../../app/session';
import { canUpdateOrganization } from '../../app/document/access';
import { documentListQuery } from '../../app/document/current-document';
import { useRememberDocument, useReorderDocuments } from './api/mutations';
import { rememberedDocumentQuery } from './api/queries';
import { CopyStatusMarker, CopyTaskNotice } from './CopyNotices';
import { ChevronIcon, DocumentIcon, DragIcon } from '../../components/document-icons';
import { resourceStatusName, statusIconGlyph, usesResourceStatuses } from '../../components/ResourceStatusSelect';
import { periodLabel, periodStatus } from './period';
import './documents.css';

export const SIDER_COLLAPSED_KEY = 'eelarve.documentSider.collapsed';

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(SIDER_COLLAPSED_KEY) === 'true';
  } catch {
    return false;
  }
}

const documentItemSelector = (id: string) => `[data-testid="document-item"][data-document-id="${CSS.escape(id)}"]`;

/** The organisation's documents on the left (spec 2, Document sider). */
export function DocumentSider() {
  const intl = useIntl();
  const me = useCurrentUser();
  const organizationId = me.organizationId ?? '';
  const { documentId } = useParams();
  const navigate = useNavigate();
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const canReorder = canUpdateOrganization(me);
  const documents = useQuery(documentListQuery(organizationId));
  const [order, setOrder] = useState<Document[] | null>(null);
  const dragged = useRef<string | null>(null);

  const toggle = () => {
    setCollapsed((value) => {
      try {
        localStorage.setItem(SIDER_COLLAPSED_KEY, String(!value));
      } catch {
        // Private mode: the state is not kept.
      }
      return !value;
    });
  };

  // The selected document is remembered as a user setting whenever it differs.
  const remembered = useQuery(rememberedDocumentQuery());
  const rememberedId = remembered.data?.settings.rememberedDocumentId;
  const remember = useRememberDocument();
  useEffect(() => {
    // Only a document of the list: an address that leads nowhere is not remembered for the next sign-in.
    const known = documents.data?.some((document) => document.id === documentId) ?? false;
    if (!documentId || !known || !remembered.isSuccess || rememberedId === documentId) return;
    remember(documentId);
  }, [documentId, documents.data, remembered.isSuccess, rememberedId, remember]);

  const reorder = useReorderDocuments(organizationId, { onError: () => setOrder(null), onSettled: () => setOrder(null) });

  const list = order ?? documents.data ?? [];

  // The selected document is scrolled into view, retried every 300 ms while the list loads (spec 2, section 9).
  useScrollIntoView(collapsed ? null : documentId, documentItemSelector);

  const onDragStart = (id: string) => (event: DragEvent) => {
    dragged.current = id;
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', id);
  };
  const onDragOver = (overId: string) => (event: DragEvent) => {
    const from = dragged.current;
    if (!from) return;
    event.preventDefault();
    if (from === overId) return;
    const current = [...list];
    const fromIndex = current.findIndex((document) => document.id === from);
    const toIndex = current.findIndex((document) => document.id === overId);
    if (fromIndex < 0 || toIndex < 0) return;
    const [moved] = current.splice(fromIndex, 1);
    if (moved) current.splice(toIndex, 0, moved);
    setOrder(current);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    if (!dragged.current) return;
    dragged.current = null;
    const ids = list.map((document) => document.id);
    const before = (documents.data ?? []).map((document) => document.id);
    if (ids.join() !== before.join()) reorder.mutate(ids);
    else setOrder(null);
  };
  const onDragEnd = () => {
    if (dragged.current) {
      dragged.current = null;
      setOrder(null);
    }
  };

  return (
    <aside className={collapsed ? 'document-sider collapsed' : 'document-sider'} data-testid="document-sider" data-collapsed={collapsed}>
      <div className="document-sider-header">
        {collapsed ? null : (
          <h2 className="document-sider-title">
            <FormattedMessage id="documents.sider.title" />
          </h2>
        )}
        <button
          type="button"
          className="icon-button"
          onClick={toggle}
          aria-expanded={!collapsed}
          aria-label={intl.formatMessage({ id: collapsed ? 'documents.sider.expand' : 'documents.sider.collapse' })}
          data-testid="document-sider-toggle"
        >
          <ChevronIcon left={!collapsed} />
        </button>
      </div>
      {collapsed ? null : (
        <>
          <div className="document-sider-actions">
            <span title={canReorder ? undefined : intl.formatMessage({ id: 'documents.sider.createDisabled' })}>
              <button
                type="button"
                className="button button-primary button-block"
                disabled={!canReorder}
                onClick={() => navigate('/document/create')}
                data-testid="document-create"
              >
                <PlusIcon />
                <FormattedMessage id="documents.sider.create" />
              </button>
            </span>
          </div>
          <CopyTaskNotice />
          {documents.isError ? (
            <ListError
              error={documents.error}
              title={<FormattedMessage id="documents.sider.loadFailed" />}
              onRetry={() => void documents.refetch()}
              testId="document-sider-error"
            />
          ) : null}
          {documents.isPending ? <Spinner /> : null}
          {documents.isSuccess && list.length === 0 ? (
            <p className="muted document-sider-empty" data-testid="document-sider-empty">
              <FormattedMessage id="documents.sider.empty" />
            </p>
          ) : null}
          <ul className="document-list" data-testid="document-list" onDrop={onDrop}>
            {list.map((document) => {
              const status = periodStatus(document.period);
              return (
                <li
                  key={document.id}
                  className={document.id === documentId ? 'document-item active' : 'document-item'}
                  draggable={canReorder && !reorder.isPending}
                  onDragStart={onDragStart(document.id)}
                  onDragOver={onDragOver(document.id)}
                  onDragEnd={onDragEnd}
                  data-testid="document-item"
                  data-document-id={document.id}
                >
                  {canReorder ? (
                    <span className="document-drag" aria-hidden="true">
                      <DragIcon />
                    </span>
                  ) : null}
                  <Link to={`/document/${document.id}/budgets`} className="document-link" draggable={false} data-testid="document-link">
                    <span
                      className={`document-status document-status-${status}`}
                      title={intl.formatMessage({ id: `documents.status.${status}` })}
                      data-testid="document-status"
                      data-status={status}
                    >
                      <DocumentIcon />
                    </span>
                    <span className="document-text">
                      <span className="document-name-line">
                        <span className="document-name" data-testid="document-name">
                          {document.name}
                        </span>
                        <DocumentResourceStatus me={me} statusId={document.resourceStatusId} />
                      </span>
                      <span className="document-period muted">{periodLabel(document.period)}</span>
                      <CopyStatusMarker status={document.copyStatus} />
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </aside>
  );
}

/**
 * The document's resource status beside its name (spec 2, Document sider): the icon, named for
 * screen readers and in the tooltip. Nothing where the organisation does not use statuses.
 */
function DocumentResourceStatus({ me, statusId }: { me: Me; statusId: string | null }) {
  const intl = useIntl();
  const status = statusId && usesResourceStatuses(me) ? me.resourceStatuses.find((candidate) => candidate.id === statusId) : undefined;
  if (!status) return null;
  const label = intl.formatMessage(
    { id: 'documents.sider.resourceStatus' },
    { name: resourceStatusName(status, intl.locale, me.organizationLocaleSettings?.language) },
  );
  return (
    <span
      className="document-resource-status"
      role="img"
      aria-label={label}
      title={label}
      data-testid="document-resource-status-icon"
      data-status-id={status.id}
    >
      {statusIconGlyph(status.icon) || '•'}
    </span>
  );
}
