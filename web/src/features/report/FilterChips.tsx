import type { ReportFilter } from '@eelarve/shared';
import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { filterKeyOf, itemMatches, moveFilter, setVisible, updateFilter } from './model/filters';
import { Popover } from './Popover';

/**
 * The row of filter chips (spec 3, section 2): each shown filter a chip that opens its items (with
 * a search over them) and its search term; chips are dragged onto each other to reorder them. The
 * filter visibility menu chooses which chips show. A chip set to highlight keeps every row and
 * marks the ones it chooses instead (model/filters.ts `matchingRows`).
 */

export interface FilterItem {
  /** What the filter selects: a sub-budget's id or an item's code. */
  value: string;
  code: string;
  name: string;
}

export interface FilterChoices {
  name: (filter: ReportFilter) => string;
  items: (filter: ReportFilter) => FilterItem[];
}

const DRAG_TYPE = 'application/x-report-filter';

function FilterPanel({ filter, choices, onChange }: { filter: ReportFilter; choices: FilterChoices; onChange: (change: Partial<ReportFilter>) => void }) {
  const id = useId();
  const intl = useIntl();
  const [search, setSearch] = useState('');
  const [term, setTerm] = useState(filter.searchTerm ?? '');
  const selected = new Set(filter.selectedItems ?? []);
  const items = choices.items(filter).filter((item) => itemMatches(item, search));
  const toggle = (value: string) => {
    const next = new Set(selected);
    if (next.has(value)) next.delete(value);
    else next.add(value);
    onChange({ selectedItems: [...next] });
  };
  return (
    <div className="report-filter-panel">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onChange({ searchTerm: term });
        }}
      >
        <label htmlFor={`${id}-term`}>
          <FormattedMessage id="report.filter.search" />
        </label>
        <input
          id={`${id}-term`}
          type="search"
          value={term}
          onChange={(event) => setTerm(event.target.value)}
          onBlur={() => term !== (filter.searchTerm ?? '') && onChange({ searchTerm: term })}
          data-testid="report-filter-term"
        />
      </form>
      <label className="checkbox-label">
        <input
          type="checkbox"
          checked={filter.highlight === true}
          onChange={(event) => onChange({ highlight: event.target.checked })}
          data-testid="report-filter-highlight"
        />
        <FormattedMessage id="report.filter.highlight" />
      </label>
      <input
        type="search"
        aria-label={intl.formatMessage({ id: 'report.filter.searchItems' })}
        placeholder={intl.formatMessage({ id: 'report.filter.searchItems' })}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        data-testid="report-filter-item-search"
      />
      <ul className="report-filter-items" data-testid="report-filter-items">
        {items.map((item) => (
          <li key={item.value}>
            <label className="checkbox-label">
              <input
                type="checkbox"
                checked={selected.has(item.value)}
                onChange={() => toggle(item.value)}
                data-testid="report-filter-item"
                data-value={item.code}
              />
              {item.code === item.name ? item.name : `${item.code} ${item.name}`}
            </label>
          </li>
        ))}
      </ul>
      <button type="button" className="button" onClick={() => onChange({ selectedItems: [], searchTerm: '' })} data-testid="report-filter-clear">
        <FormattedMessage id="report.filter.clear" />
      </button>
    </div>
  );
}

export function FilterChips({ filters, choices, onChange }: { filters: ReportFilter[]; choices: FilterChoices; onChange: (filters: ReportFilter[]) => void }) {
  const intl = useIntl();
  const [dragged, setDragged] = useState<string | null>(null);
  return (
    <ul className="report-chips" aria-label={intl.formatMessage({ id: 'report.filters' })} data-testid="report-chips">
      {filters
        .filter((filter) => filter.visible)
        .map((filter) => {
          const key = filterKeyOf(filter.key);
          const name = choices.name(filter);
          const count = filter.selectedItems?.length ?? 0;
          const term = filter.searchTerm?.trim();
          return (
            <li
              key={key}
              className={dragged === key ? 'report-chip report-chip-dragged' : 'report-chip'}
              draggable
              title={intl.formatMessage({ id: 'report.filter.drag' }, { name })}
              onDragStart={(event) => {
                event.dataTransfer.setData(DRAG_TYPE, key);
                event.dataTransfer.effectAllowed = 'move';
                setDragged(key);
              }}
              onDragEnd={() => setDragged(null)}
              onDragOver={(event) => event.preventDefault()}
              onDrop={(event) => {
                event.preventDefault();
                const from = event.dataTransfer.getData(DRAG_TYPE);
                if (from) onChange(moveFilter(filters, from, key));
                setDragged(null);
              }}
              data-testid="report-chip"
              data-filter-key={key}
              data-active={count > 0 || !!term}
              data-highlight={filter.highlight === true}
            >
              <Popover
                label={
                  <>
                    <span className="report-chip-name">{name}</span>
                    <span className="report-chip-value">
                      {count > 0 ? intl.formatMessage({ id: 'report.filter.selected' }, { count }) : intl.formatMessage({ id: 'report.filter.all' })}
                      {term ? ` · “${term}”` : ''}
                      {filter.highlight ? ` · ${intl.formatMessage({ id: 'report.filter.highlighting' })}` : ''}
                    </span>
                  </>
                }
                title={name}
                buttonClassName="report-chip-button"
                testId={`report-chip-${filter.key.type}`}
              >
                {() => <FilterPanel filter={filter} choices={choices} onChange={(change) => onChange(updateFilter(filters, key, change))} />}
              </Popover>
            </li>
          );
        })}
    </ul>
  );
}

/** The filter visibility menu: which chips show (a hidden filter counts nothing). */
export function FilterVisibilityMenu({
  filters,
  choices,
  onChange,
}: {
  filters: ReportFilter[];
  choices: FilterChoices;
  onChange: (filters: ReportFilter[]) => void;
}) {
  const intl = useIntl();
  return (
    <Popover label={<FormattedMessage id="report.filters" />} title={intl.formatMessage({ id: 'report.filters.visibility' })} testId="report-filter-visibility">
      {() => (
        <fieldset className="report-visibility">
          <legend>
            <FormattedMessage id="report.filters.visibility" />
          </legend>
          {filters.map((filter) => {
            const key = filterKeyOf(filter.key);
            return (
              <label key={key} className="checkbox-label">
                <input
                  type="checkbox"
                  checked={filter.visible}
                  onChange={(event) => onChange(setVisible(filters, key, event.target.checked))}
                  data-testid="report-filter-visible"
                  data-filter-key={key}
                />
                {choices.name(filter)}
              </label>
            );
          })}
        </fieldset>
      )}
    </Popover>
  );
}
