import { FormattedMessage, useIntl } from 'react-intl';
import { DropdownMenu } from '../../../components/DropdownMenu';
import { InlineAddButton } from '../../../grid/InlineEditParts';
import type { ImportType } from '../api/requests';

const IMPORT_MODES = ['SUB_BUDGETS_WITH_PRESELECTIONS', 'PRESELECTIONS_ONLY'] as const;

/** Above the sub-budgets: filter, show-selected-only, the selection count, export, and for editors import, delete-selected and add. */
export function SubBudgetsToolbar({
  filter,
  onFilter,
  selectedOnly,
  onSelectedOnly,
  selectedCount,
  canEdit,
  noClassifiers,
  loading,
  editing,
  exporting,
  onExport,
  onImport,
  onDeleteSelected,
  onAdd,
}: {
  filter: string;
  onFilter: (value: string) => void;
  selectedOnly: boolean;
  onSelectedOnly: (value: boolean) => void;
  selectedCount: number;
  canEdit: boolean;
  noClassifiers: boolean;
  loading: boolean;
  /** A row is being edited: no bulk delete, no second new row. */
  editing: boolean;
  exporting: boolean;
  onExport: () => void;
  onImport: (mode: ImportType) => void;
  onDeleteSelected: () => void;
  onAdd: () => void;
}) {
  const intl = useIntl();
  const importItems = IMPORT_MODES.map((mode) => ({
    key: mode,
    label: <FormattedMessage id={mode === 'PRESELECTIONS_ONLY' ? 'subBudgets.import.preselectionsOnly' : 'subBudgets.import.withPreselections'} />,
    onSelect: () => onImport(mode),
    testId: `sub-budgets-import-${mode}`,
  }));
  return (
    <div className="sub-budgets-toolbar">
      <input
        type="search"
        className="input sub-budgets-filter"
        placeholder={intl.formatMessage({ id: 'subBudgets.filter' })}
        aria-label={intl.formatMessage({ id: 'subBudgets.filter' })}
        value={filter}
        onChange={(event) => onFilter(event.target.value)}
        data-testid="sub-budgets-filter"
      />
      <label className="switch-label">
        <input type="checkbox" checked={selectedOnly} onChange={(event) => onSelectedOnly(event.target.checked)} data-testid="sub-budgets-selected-only" />
        <FormattedMessage id="subBudgets.selectedOnly" />
      </label>
      <span className="muted" data-testid="sub-budgets-selected-count">
        <FormattedMessage id="subBudgets.selectedCount" values={{ count: selectedCount }} />
      </span>
      <span className="toolbar-spacer" />
      <button type="button" className="button" onClick={onExport} disabled={exporting || loading} data-testid="sub-budgets-export">
        <FormattedMessage id="subBudgets.export" />
      </button>
      {canEdit ? (
        <>
          <DropdownMenu label={intl.formatMessage({ id: 'subBudgets.import' })} items={noClassifiers ? [] : importItems} testId="sub-budgets-import">
            <span className="button">
              <FormattedMessage id="subBudgets.import" />
            </span>
          </DropdownMenu>
          <button
            type="button"
            className="button button-danger"
            disabled={selectedCount === 0 || editing}
            onClick={onDeleteSelected}
            data-testid="sub-budgets-delete-selected"
          >
            <FormattedMessage id="subBudgets.deleteSelected" />
          </button>
          <InlineAddButton
            busy={editing}
            loading={loading || noClassifiers}
            busyTitleId="subBudgets.action.busy"
            labelId="subBudgets.add"
            onClick={onAdd}
            testId="sub-budgets-add"
          />
        </>
      ) : null}
    </div>
  );
}
