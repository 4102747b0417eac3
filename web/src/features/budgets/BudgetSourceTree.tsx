import type { Document } from '@eelarve/shared';
import { type KeyboardEvent, type MouseEvent, type ReactNode, useId, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ChevronIcon, DocumentIcon } from '../../components/document-icons';
import type { BudgetView } from './api/queries';
import { type SourceTreeItem, sourceTreeGroups, visibleTreeItems } from './source-tree';
import { BudgetTypeIcon } from './BudgetTypeIcon';

interface BudgetSourceTreeProps {
  documents: readonly Pick<Document, 'id' | 'name'>[];
  /** The budgets that may be chosen (already narrowed to sensible copy sources). */
  budgets: readonly BudgetView[];
  /** Expanded at first. */
  currentDocumentId: string;
  value: string;
  onChange: (budgetId: string) => void;
  /** The id of the element that names the tree. */
  labelledBy: string;
  /** The id of the field's error message, if any. */
  errorId?: string;
}

/**
 * Copy-from-existing's source budget, chosen from a tree of documents (spec 2, Budget form).
 * A WAI-ARIA tree: one tab stop, arrow keys move, Right and Left open and close a document, Enter
 * or Space chooses a budget; the search box narrows the budgets by name and opens their documents.
 */
export function BudgetSourceTree({ documents, budgets, currentDocumentId, value, onChange, labelledBy, errorId }: BudgetSourceTreeProps) {
  const intl = useIntl();
  const treeId = useId();
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set([currentDocumentId]));
  // While searching every document with a match is open, unless closed during this search.
  const [closedInSearch, setClosedInSearch] = useState<ReadonlySet<string>>(() => new Set());
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const items = useRef(new Map<string, HTMLDivElement>());

  const searching = search.trim() !== '';
  const allGroups = useMemo(() => sourceTreeGroups(documents, budgets, ''), [documents, budgets]);
  const groups = useMemo(() => sourceTreeGroups(documents, budgets, search), [documents, budgets, search]);
  const isExpanded = (documentId: string) => (searching ? !closedInSearch.has(documentId) : expanded.has(documentId));
  const visible = visibleTreeItems(groups, isExpanded);
  const selected = budgets.find((budget) => budget.id === value);
  const selectedDocument = selected ? documents.find((document) => document.id === selected.documentId) : undefined;
  // The one tab stop: the focused row, else the chosen budget, else the first row.
  const tabStop = visible.find((item) => item.key === activeKey)?.key ?? visible.find((item) => item.budgetId === value)?.key ?? visible[0]?.key ?? null;

  const toggle = (documentId: string, open?: boolean) => {
    const flip = (current: ReadonlySet<string>, add: boolean) => {
      const next = new Set(current);
      if (add) next.add(documentId);
      else next.delete(documentId);
      return next;
    };
    const opening = open ?? !isExpanded(documentId);
    if (searching) setClosedInSearch((current) => flip(current, !opening));
    else setExpanded((current) => flip(current, opening));
  };

  const focusItem = (item: SourceTreeItem | undefined) => {
    if (!item) return;
    setActiveKey(item.key);
    items.current.get(item.key)?.focus();
  };

  /** The keys of a focused row (each row handles its own: a document's row ignores its budgets' keys). */
  const onKeyDown = (item: SourceTreeItem) => (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    const index = visible.findIndex((other) => other.key === item.key);
    let handled = true;
    switch (event.key) {
      case 'ArrowDown':
        focusItem(visible[index + 1]);
        break;
      case 'ArrowUp':
        focusItem(visible[index - 1]);
        break;
      case 'Home':
        focusItem(visible[0]);
        break;
      case 'End':
        focusItem(visible[visible.length - 1]);
        break;
      case 'ArrowRight':
        if (item.kind === 'document') {
          if (!isExpanded(item.documentId)) toggle(item.documentId, true);
          else if (visible[index + 1]?.kind === 'budget') focusItem(visible[index + 1]);
        }
        break;
      case 'ArrowLeft':
        if (item.kind === 'document') toggle(item.documentId, false);
        else focusItem(visible.find((other) => other.kind === 'document' && other.documentId === item.documentId));
        break;
      case 'Enter':
      case ' ':
        choose(item);
        break;
      default:
        handled = false;
    }
    if (handled) event.preventDefault();
  };

  /** A document opens or closes, a budget is chosen. */
  const choose = (item: SourceTreeItem) => {
    setActiveKey(item.key);
    if (item.kind === 'document') toggle(item.documentId);
    else if (item.budgetId) onChange(item.budgetId);
  };

  /** A click on a row (a click inside a document's budgets belongs to the budget). */
  const onClick = (item: SourceTreeItem) => (event: MouseEvent<HTMLDivElement>) => {
    if ((event.target as HTMLElement).closest('[role="treeitem"]') !== event.currentTarget) return;
    choose(item);
  };

  const register = (key: string) => (element: HTMLDivElement | null) => {
    if (element) items.current.set(key, element);
    else items.current.delete(key);
  };

  return (
    <div className="source-tree" data-testid="budget-copy-source">
      <input
        type="search"
        className="source-tree-search"
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
          setClosedInSearch(new Set());
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && visible.length > 0) {
            event.preventDefault();
            focusItem(visible[0]);
          }
        }}
        placeholder={intl.formatMessage({ id: 'budgets.copy.sourceSearch' })}
        aria-label={intl.formatMessage({ id: 'budgets.copy.sourceSearch' })}
        aria-controls={treeId}
        data-testid="budget-copy-source-search"
      />
      {allGroups.length === 0 ? (
        <p className="muted" data-testid="budget-copy-source-empty">
          <FormattedMessage id="budgets.copy.sourceEmpty" />
        </p>
      ) : groups.length === 0 ? (
        <p className="muted" data-testid="budget-copy-source-no-match">
          <FormattedMessage id="budgets.copy.sourceNoMatch" />
        </p>
      ) : null}
      <div id={treeId} role="tree" className="source-tree-list" aria-labelledby={labelledBy} aria-describedby={errorId} hidden={groups.length === 0}>
        {groups.map((group) => {
          const documentItem: SourceTreeItem = { key: `d:${group.document.id}`, kind: 'document', documentId: group.document.id, budgetId: null };
          const open = isExpanded(group.document.id);
          return (
            <div
              key={group.document.id}
              ref={register(documentItem.key)}
              role="treeitem"
              aria-level={1}
              aria-expanded={open}
              tabIndex={tabStop === documentItem.key ? 0 : -1}
              onFocus={(event) => {
                if (event.target === event.currentTarget) setActiveKey(documentItem.key);
              }}
              onKeyDown={onKeyDown(documentItem)}
              onClick={onClick(documentItem)}
              data-testid="budget-copy-source-document"
              data-document-id={group.document.id}
            >
              <div className="source-tree-row">
                <span className={open ? 'source-tree-chevron open' : 'source-tree-chevron'} aria-hidden="true">
                  <ChevronIcon left={false} />
                </span>
                <DocumentIcon />
                <span className="source-tree-name">{group.document.name}</span>
                <span className="muted source-tree-count">
                  <FormattedMessage id="budgets.copy.sourceCount" values={{ count: group.budgets.length }} />
                </span>
              </div>
              {open ? (
                // biome-ignore lint/a11y/useSemanticElements: a tree's nested items are a WAI-ARIA group, not a form fieldset
                <div role="group" className="source-tree-group">
                  {group.budgets.map((budget) => {
                    const budgetItem: SourceTreeItem = { key: `b:${budget.id}`, kind: 'budget', documentId: group.document.id, budgetId: budget.id };
                    const chosen = budget.id === value;
                    return (
                      <div
                        key={budget.id}
                        ref={register(budgetItem.key)}
                        role="treeitem"
                        aria-level={2}
                        aria-selected={chosen}
                        tabIndex={tabStop === budgetItem.key ? 0 : -1}
                        onFocus={(event) => {
                          if (event.target === event.currentTarget) setActiveKey(budgetItem.key);
                        }}
                        onKeyDown={onKeyDown(budgetItem)}
                        onClick={onClick(budgetItem)}
                        data-testid="budget-copy-source-option"
                        data-budget-id={budget.id}
                        data-budget-name={budget.name}
                      >
                        <div className={chosen ? 'source-tree-row selected' : 'source-tree-row'}>
                          <BudgetTypeIcon type={budget.type} />
                          <span className="source-tree-name">{highlightMatch(budget.name, search)}</span>
                        </div>
                      </div>
                    );
                  })}
                </div>
              ) : null}
            </div>
          );
        })}
      </div>
      {selected ? (
        <p className="source-tree-selected" data-testid="budget-copy-source-selected" aria-live="polite">
          <FormattedMessage id="budgets.copy.sourceSelected" values={{ budget: selected.name, document: selectedDocument?.name ?? '' }} />
        </p>
      ) : null}
    </div>
  );
}

/** The name with the searched part marked. */
function highlightMatch(name: string, search: string): ReactNode {
  const query = search.trim().toLocaleLowerCase();
  const start = query === '' ? -1 : name.toLocaleLowerCase().indexOf(query);
  if (start < 0) return name;
  return (
    <>
      {name.slice(0, start)}
      <mark>{name.slice(start, start + query.length)}</mark>
      {name.slice(start + query.length)}
    </>
  );
}
