import type { ICellRendererParams } from 'ag-grid-community';
import { FormattedMessage, useIntl } from 'react-intl';
import type { MessageKey } from '../../i18n/messages';
import type { ResourceKind, TreeRow } from './tree';

/** A row of a resource tree grid. */
export interface TreeRowData {
  id: string;
  tree: TreeRow;
  /** The resource chosen in the tree (budget permissions). */
  selected?: boolean;
}

export interface TreeGridContext<T extends TreeRowData> {
  onOpen: (row: T, open: boolean) => void;
  /** Given where a row is chosen by clicking its name. */
  onSelect?: (row: T) => void;
}

const KIND_LABELS: Record<ResourceKind, MessageKey> = {
  organization: 'permissions.kind.organization',
  document: 'permissions.kind.document',
  budget: 'permissions.kind.budget',
  subBudget: 'permissions.kind.subBudget',
};

/** Indentation per level of the tree, in pixels. */
const INDENT = 20;

/** The resource's name, indented by depth, with its kind and, for a common budget, the open/close toggle. */
export function ResourceNameCell<T extends TreeRowData>({ data, context }: ICellRendererParams<T, unknown, TreeGridContext<T>>) {
  const intl = useIntl();
  if (!data) return null;
  const { tree } = data;
  const toggleLabel = intl.formatMessage({ id: tree.expanded ? 'permissions.collapse' : 'permissions.expand' }, { name: tree.name });
  return (
    <div className="tree-cell" style={{ paddingLeft: tree.depth * INDENT }} data-testid="resource-row" data-kind={tree.kind} data-id={tree.id}>
      {tree.kind === 'budget' && tree.expandable ? (
        <button
          type="button"
          className="icon-button tree-toggle"
          aria-expanded={tree.expanded}
          aria-label={toggleLabel}
          title={toggleLabel}
          onClick={() => context.onOpen(data, !tree.expanded)}
          data-testid="resource-toggle"
        >
          <span aria-hidden="true">{tree.expanded ? '▾' : '▸'}</span>
        </button>
      ) : (
        <span className="tree-spacer" />
      )}
      <span className="resource-kind">
        <FormattedMessage id={KIND_LABELS[tree.kind]} />
      </span>
      {context.onSelect ? (
        <button
          type="button"
          className="link-button resource-name"
          aria-pressed={data.selected ?? false}
          onClick={() => context.onSelect?.(data)}
          data-testid="resource-select"
        >
          {tree.name}
        </button>
      ) : (
        <span className="resource-name" data-testid="resource-name">
          {tree.name}
        </span>
      )}
      {tree.loading ? (
        <span className="muted" role="status">
          <FormattedMessage id="permissions.loadingChildren" />
        </span>
      ) : null}
    </div>
  );
}
