import { type KeyboardEvent as ReactKeyboardEvent, type Ref, useEffect, useId, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocale } from '../i18n/I18nProvider';
import { CheckIcon, ChevronDownIcon } from './icons';
import { type MultiSelectOption, matchingOptions, type PopupPosition, popupPosition, SEARCH_FROM_OPTIONS, toggleValue, visibleChoices } from './multi-select';
import { usePopupDismiss } from './usePopupDismiss';
import './chips.css';
import './multi-select.css';

export { type MultiSelectOption, SEARCH_FROM_OPTIONS } from './multi-select';

export interface MultiSelectHandle {
  focus(): void;
  open(): void;
}

/**
 * A multi-select (AG Grid Community has no rich select): a trigger that shows the chosen values as
 * chips and a popup with a checkbox per option; from SEARCH_FROM_OPTIONS options on the popup has a
 * search box. The popup is rendered in a portal so that a grid cell or a modal does not clip it.
 *
 * The closed control shows every chosen value as wrapping chips, or with `maxShown` (and in a
 * `compact` grid cell, 2) one line of the first values and "+n", the full list in its title.
 *
 * Keys: ArrowDown on the trigger opens the popup, which focuses its search box or first checkbox;
 * Escape closes only the popup (a modal or an edited grid row around it stays) and Tab past the last
 * control of the popup closes it; both give the focus back to the trigger.
 *
 * Test ids: the trigger `testId` (with `data-count`), its chips `${testId}-chip` (with `data-value`)
 * and "+n" `${testId}-more`; the popup `${testId}-popup`, its search `${testId}-search`, select-all
 * `${testId}-all` and clear `${testId}-clear` buttons, each option's label `${testId}-option` (with
 * `data-value`) and checkbox `${testId}-option-${value}`, and `${testId}-empty` when no option matches.
 */
export function MultiSelect({
  options,
  value,
  onChange,
  placeholder,
  label,
  testId,
  maxShown,
  compact = false,
  inline = false,
  selectAll = true,
  clearable = true,
  disabled = false,
  invalid = false,
  id,
  describedBy,
  onTriggerKeyDown,
  ref,
}: {
  options: readonly MultiSelectOption[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  /** Shown on the closed control when nothing is chosen. */
  placeholder: string;
  /** Accessible name of the trigger and the popup. */
  label: string;
  testId: string;
  /** How many chosen values the closed control shows before "+n" (spec 2, section 9: 3 in a filter); all when not given. */
  maxShown?: number;
  /** The height of a grid cell; shows 2 chosen values unless `maxShown` says otherwise. */
  compact?: boolean;
  /** As wide as its content (at least 220 px, a filter bar) instead of the whole width of its container. */
  inline?: boolean;
  /** A "select all" button in the popup. */
  selectAll?: boolean;
  /** A "clear" button in the popup. */
  clearable?: boolean;
  disabled?: boolean;
  invalid?: boolean;
  id?: string;
  describedBy?: string;
  /** Keys the popup does not use (Enter to save a grid row, for instance). */
  onTriggerKeyDown?: (event: ReactKeyboardEvent<HTMLButtonElement>) => void;
  ref?: Ref<MultiSelectHandle>;
}) {
  const intl = useIntl();
  const { locale } = useLocale();
  const listId = useId();
  const nameId = useId();
  const valuesId = useId();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [position, setPosition] = useState<PopupPosition | null>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const popupRef = useRef<HTMLDivElement>(null);

  useImperativeHandle(ref, () => ({ focus: () => triggerRef.current?.focus(), open: () => setOpen(true) }), []);

  const selected = useMemo(() => new Set(value), [value]);
  const chosen = useMemo(() => options.filter((option) => selected.has(option.value)), [options, selected]);
  const showSearch = options.length >= SEARCH_FROM_OPTIONS;
  const visible = useMemo(() => matchingOptions(options, showSearch ? search : '', locale), [options, search, showSearch, locale]);
  const limit = maxShown ?? (compact ? 2 : Number.POSITIVE_INFINITY);
  const oneLine = Number.isFinite(limit);
  const { shown, more } = visibleChoices(chosen, limit);

  useLayoutEffect(() => {
    if (!open || !triggerRef.current) return;
    const rect = triggerRef.current.getBoundingClientRect();
    setPosition(popupPosition(rect, { width: window.innerWidth, height: window.innerHeight }));
  }, [open]);

  usePopupDismiss(open, setOpen, triggerRef, popupRef);
  useEffect(() => {
    if (open) popupRef.current?.querySelector<HTMLElement>('input[type="search"], input[type="checkbox"]')?.focus();
    else setSearch('');
  }, [open]);

  const closeAndFocus = () => {
    setOpen(false);
    triggerRef.current?.focus();
  };

  const onPopupKeyDown = (event: ReactKeyboardEvent) => {
    if (event.key === 'Escape') {
      // Only the popup closes; the modal or the edited grid row around it stays.
      event.stopPropagation();
      event.nativeEvent.stopImmediatePropagation();
      closeAndFocus();
    } else if (event.key === 'Tab' && !event.shiftKey) {
      const focusable = popupRef.current?.querySelectorAll<HTMLElement>('input, button:not([disabled])');
      if (focusable && document.activeElement === focusable[focusable.length - 1]) {
        event.preventDefault();
        closeAndFocus();
      }
    }
  };

  const triggerClass = ['multi-select-trigger', compact && 'compact', oneLine && 'one-line', inline && 'inline', invalid && 'invalid']
    .filter(Boolean)
    .join(' ');

  return (
    <>
      <button
        ref={triggerRef}
        id={id}
        type="button"
        className={triggerClass}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        // Named by its label and then what it shows (WCAG 2.5.3, axe label-content-name-mismatch).
        aria-labelledby={`${nameId} ${valuesId}`}
        aria-describedby={describedBy}
        aria-invalid={invalid ? true : undefined}
        disabled={disabled}
        title={oneLine && chosen.length > 0 ? chosen.map((option) => option.label).join(', ') : undefined}
        onClick={() => setOpen((current) => !current)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
            return;
          }
          onTriggerKeyDown?.(event);
        }}
        data-testid={testId}
        data-count={chosen.length}
      >
        <span id={nameId} className="visually-hidden">
          {label}
        </span>
        <span id={valuesId} className="multi-select-values">
          {chosen.length === 0 ? <span className="multi-select-placeholder">{placeholder}</span> : null}
          {shown.map((option) => (
            <span key={option.value} className="chip" data-testid={`${testId}-chip`} data-value={option.value}>
              {option.label}
            </span>
          ))}
          {more > 0 ? (
            <span className="chip chip-more" data-testid={`${testId}-more`}>
              <FormattedMessage id="components.multiSelect.more" values={{ count: more }} />
            </span>
          ) : null}
        </span>
        <ChevronDownIcon className="multi-select-chevron" />
      </button>
      {open && position
        ? createPortal(
            <div
              ref={popupRef}
              className="multi-select-popup"
              role="dialog"
              aria-label={label}
              style={{ top: position.top, left: position.left, width: position.width, maxHeight: position.maxHeight }}
              onKeyDown={onPopupKeyDown}
              data-testid={`${testId}-popup`}
            >
              {showSearch ? (
                <div className="multi-select-search">
                  <input
                    type="search"
                    value={search}
                    placeholder={intl.formatMessage({ id: 'components.multiSelect.search' })}
                    aria-label={intl.formatMessage({ id: 'components.multiSelect.search' })}
                    onChange={(event) => setSearch(event.target.value)}
                    data-testid={`${testId}-search`}
                  />
                </div>
              ) : null}
              <div className="multi-select-tools">
                <span className="muted">
                  <FormattedMessage id="components.multiSelect.selected" values={{ count: chosen.length, total: options.length }} />
                </span>
                <span className="multi-select-tool-buttons">
                  {selectAll ? (
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => onChange(options.map((option) => option.value))}
                      disabled={chosen.length === options.length}
                      data-testid={`${testId}-all`}
                    >
                      <FormattedMessage id="components.multiSelect.selectAll" />
                    </button>
                  ) : null}
                  {clearable ? (
                    <button type="button" className="link-button" onClick={() => onChange([])} disabled={chosen.length === 0} data-testid={`${testId}-clear`}>
                      <FormattedMessage id="components.multiSelect.clear" />
                    </button>
                  ) : null}
                </span>
              </div>
              <ul id={listId} className="multi-select-options" aria-label={label}>
                {visible.map((option) => {
                  const checked = selected.has(option.value);
                  return (
                    <li key={option.value}>
                      <label
                        className={checked ? 'multi-select-option checked' : 'multi-select-option'}
                        data-testid={`${testId}-option`}
                        data-value={option.value}
                      >
                        <input
                          type="checkbox"
                          checked={checked}
                          onChange={(event) => onChange(toggleValue(options, value, option.value, event.target.checked))}
                          data-testid={`${testId}-option-${option.value}`}
                        />
                        <span className="multi-select-box" aria-hidden="true">
                          {checked ? <CheckIcon /> : null}
                        </span>
                        <span className="multi-select-label">{option.label}</span>
                        {option.hint ? <span className="multi-select-hint">{option.hint}</span> : null}
                      </label>
                    </li>
                  );
                })}
                {visible.length === 0 ? (
                  <li className="multi-select-empty" data-testid={`${testId}-empty`}>
                    <FormattedMessage id="components.multiSelect.noMatches" />
                  </li>
                ) : null}
              </ul>
            </div>,
            document.body,
          )
        : null}
    </>
  );
}
