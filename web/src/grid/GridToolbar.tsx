import { type ReactNode, useId } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { PlusIcon, SearchIcon } from '../components/icons';
import type { MessageKey } from '../i18n/messages';

export interface GridToolbarProps {
  /** The search field's label (visually hidden) and placeholder. */
  searchLabel: MessageKey;
  search: string;
  onSearch: (value: string) => void;
  searchTestId: string;
  /** Shown next to the search field (e.g. a row count); when given, both sit in one `toolbar-start` group. */
  info?: ReactNode;
  /** The add button; left out when the user may not add. */
  add?: { label: MessageKey; testId: string; onClick: () => void };
}

/** The toolbar above a list grid: a search field on the left, the add button on the right. */
export function GridToolbar({ searchLabel, search, onSearch, searchTestId, info, add }: GridToolbarProps) {
  const intl = useIntl();
  const searchId = useId();
  const searchBox = (
    <div className="search-box">
      <label htmlFor={searchId} className="visually-hidden">
        <FormattedMessage id={searchLabel} />
      </label>
      <SearchIcon />
      <input
        id={searchId}
        type="search"
        value={search}
        placeholder={intl.formatMessage({ id: searchLabel })}
        onChange={(event) => onSearch(event.target.value)}
        data-testid={searchTestId}
      />
    </div>
  );
  return (
    <div className="toolbar">
      {info === undefined ? (
        searchBox
      ) : (
        <div className="toolbar-start">
          {searchBox}
          {info}
        </div>
      )}
      {add ? (
        <button type="button" className="button button-primary" onClick={add.onClick} data-testid={add.testId}>
          <PlusIcon />
          <FormattedMessage id={add.label} />
        </button>
      ) : null}
    </div>
  );
}
