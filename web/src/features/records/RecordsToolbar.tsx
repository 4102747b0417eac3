import type { Classifier } from '@eelarve/shared';
import type { ReactNode } from 'react';
import { useId } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { SearchIcon } from '../../components/icons';
import { InlineAddButton } from '../../grid/InlineEditParts';

/**
 * Above the records (spec 3, Records screen): search, the grouping-classifier select (disabled when
 * there is only one choice), the selection's bulk actions, the import menu and the add button.
 */
export function RecordsToolbar({
  search,
  onSearch,
  grouping,
  groupingOptions,
  onGrouping,
  selectedCount,
  canWrite,
  editing,
  loading,
  importMenu,
  exportButton,
  onDeleteSelected,
  onBulkEdit,
  onAdd,
}: {
  search: string;
  onSearch: (value: string) => void;
  grouping: string | null;
  groupingOptions: readonly Classifier[];
  onGrouping: (classifierId: string) => void;
  selectedCount: number;
  canWrite: boolean;
  /** A row is being edited: no bulk action, no second new row. */
  editing: boolean;
  loading: boolean;
  /** The import menu (it says itself when the user may not import). */
  importMenu: ReactNode;
  /** The export button (shown to those who may export). */
  exportButton: ReactNode;
  onDeleteSelected: () => void;
  onBulkEdit: () => void;
  onAdd: () => void;
}) {
  const intl = useIntl();
  const searchId = useId();
  const groupingId = useId();
  return (
    <div className="records-toolbar">
      <div className="records-toolbar-row">
        <div className="search-box">
          <label htmlFor={searchId} className="visually-hidden">
            <FormattedMessage id="records.search" />
          </label>
          <SearchIcon />
          <input
            id={searchId}
            type="search"
            value={search}
            placeholder={intl.formatMessage({ id: 'records.search' })}
            onChange={(event) => onSearch(event.target.value)}
            data-testid="records-search"
          />
        </div>
        {groupingOptions.length > 0 ? (
          <label className="switch-label" htmlFor={groupingId}>
            <FormattedMessage id="records.grouping" />
            <select
              id={groupingId}
              className="input"
              value={grouping ?? ''}
              disabled={groupingOptions.length < 2}
              onChange={(event) => onGrouping(event.target.value)}
              data-testid="records-grouping"
            >
              {groupingOptions.map((classifier) => (
                <option key={classifier.id} value={classifier.id}>
                  {classifier.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {canWrite ? (
          <span className="muted" data-testid="records-selected-count">
            <FormattedMessage id="records.selectedCount" values={{ count: selectedCount }} />
          </span>
        ) : null}
      </div>
      <div className="records-toolbar-row records-toolbar-actions">
        {exportButton}
        {importMenu}
        {canWrite ? (
          <>
            <button type="button" className="button" disabled={selectedCount === 0 || editing} onClick={onBulkEdit} data-testid="records-bulk-edit">
              <FormattedMessage id="records.bulkEdit" />
            </button>
            <button
              type="button"
              className="button button-danger"
              disabled={selectedCount === 0 || editing}
              onClick={onDeleteSelected}
              data-testid="records-delete-selected"
            >
              <FormattedMessage id="records.deleteSelected" />
            </button>
            <InlineAddButton busy={editing} loading={loading} busyTitleId="records.action.busy" labelId="records.add" onClick={onAdd} testId="records-add" />
          </>
        ) : null}
      </div>
    </div>
  );
}
