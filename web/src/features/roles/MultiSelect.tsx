import {
  type KeyboardEvent as ReactKeyboardEvent,
  type Ref,
  useEffect,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { createPortal } from 'react-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocale } from '../../i18n/I18nProvider';
import { CheckIcon, ChevronDownIcon } from './icons';
import './roles.css';

export interface MultiSelectOption {
  value: string;
  label: string;
  /** Shown after the label in the list (a badge text, for instance). */
  hint?: string;
}

export interface MultiSelectHandle {
  focus(): void;
  open(): void;
}

/** Spec 1, section 9: a filter dropdown gets a search box from 11 options on. */
export const SEARCH_FROM_OPTIONS = 11;

/**
 * A multi-select with chips (AG Grid Community has no rich select): a trigger that shows the chosen
 * values as chips and a list of checkboxes in a popup. The popup is rendered in a portal so that a
 * grid cell or a modal does not clip it.
 */
export function MultiSelect({
  options,
  value,
  onChange,
  placeholder,
  label,
  testId,
  disabled = false,
  invalid = false,
  compact = false,
  id,
  describedBy,
  onTriggerKeyDown,
  ref,
}: {
  options: MultiSelectOption[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  placeholder: string;
  /** Accessible name of the trigger. */
  label: string;
  testId: string;
  disabled?: boolean;
  invalid?: boolean;
  /** One line of chips and a "+n" counter (grid cells) instead of wrapping chips. */
  compact?: boolean;
  id?: string;
  describedBy?: string;
  /** Keys the popup does not use (Enter to save a grid row, for instance). */
  onTriggerKeyDown?: (event: ReactKeyboardEvent<HTMLButtonElement>) => void;
  ref?: Ref<MultiSelectHandle>;
}) {
  const intl = useIntl();
  const { locale } = useLocale();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [position, setPosition] = useState<{ top: number; left: number; width: number; maxHeight: number } | null>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const popupRef = useRef<HTMLDivElement>(null);

  useImperativeHandle(ref, () => ({ focus: () => triggerRef.current?.focus(), open: () => setOpen(true) }), []);

  const selected = useMemo(() => new Set(value), [value]);
  const chosen = useMemo(() => options.filter((option) => selected.has(option.value)), [options, selected]);
  const showSearch = options.length >= SEARCH_FROM_OPTIONS;
  const visible = useMemo(() => {
    const needle = search.trim().toLocaleLowerCase(locale);
    return needle ? options.filter((option) => option.label.toLocaleLowerCase(locale).includes(needle)) : options;
  }, [options, search, locale]);

  useLayoutEffect(() => {
    if (!open || !triggerRef.current) return;
    const place = () => {
      const rect = triggerRef.current?.getBoundingClientRect();
      if (!rect) return;
      const width = Math.max(rect.width, 300);
      const below = window.innerHeight - rect.bottom - 16;
      const above = rect.top - 16;
      const maxHeight = Math.max(200, Math.min(380, Math.max(below, above)));
      const top = below >= Math.min(maxHeight, 260) || below >= above ? rect.bottom + 4 : Math.max(8, rect.top - 4 - maxHeight);
      setPosition({ top, left: Math.min(rect.left, window.innerWidth - width - 8), width, maxHeight });
    };
    place();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const focusTarget = popupRef.current?.querySelector<HTMLElement>('input[type="search"], input[type="checkbox"]');
    focusTarget?.focus();
    const close = () => setOpen(false);
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (popupRef.current?.contains(target) || triggerRef.current?.contains(target)) return;
      close();
    };
    const onScroll = (event: Event) => {
      if (popupRef.current?.contains(event.target as Node)) return;
      close();
    };
    document.addEventListener('pointerdown', onPointerDown);
    window.addEventListener('resize', close);
    window.addEventListener('scroll', onScroll, true);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      window.removeEventListener('resize', close);
      window.removeEventListener('scroll', onScroll, true);
    };
  }, [open]);

  useEffect(() => {
    if (!open) setSearch('');
  }, [open]);

  const toggle = (optionValue: string, checked: boolean) => {
    const next = checked ? [...value.filter((item) => item !== optionValue), optionValue] : value.filter((item) => item !== optionValue);
    // Keep the options' order so that equal selections compare equal.
    const order = new Map(options.map((option, index) => [option.value, index]));
    onChange(next.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0)));
  };

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
      const focusable = popupRef.current?.querySelectorAll<HTMLElement>('input, button');
      if (focusable && document.activeElement === focusable[focusable.length - 1]) {
        event.preventDefault();
        closeAndFocus();
      }
    }
  };

  const maxChips = compact ? 2 : Number.POSITIVE_INFINITY;
  const shownChips = chosen.slice(0, maxChips);
  const hidden = chosen.length - shownChips.length;

  return (
    <>
      <button
        ref={triggerRef}
        id={id}
        type="button"
        className={`multi-select-trigger${compact ? ' compact' : ''}${invalid ? ' invalid' : ''}`}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-label={label}
        aria-describedby={describedBy}
        aria-invalid={invalid ? true : undefined}
        disabled={disabled}
        title={compact && chosen.length > 0 ? chosen.map((option) => option.label).join(', ') : undefined}
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
        <span className="multi-select-values">
          {chosen.length === 0 ? <span className="multi-select-placeholder">{placeholder}</span> : null}
          {shownChips.map((option) => (
            <span key={option.value} className="chip" data-value={option.value}>
              {option.label}
            </span>
          ))}
          {hidden > 0 ? (
            <span className="chip chip-more">
              <FormattedMessage id="roles.privileges.more" values={{ count: hidden }} />
            </span>
          ) : null}
        </span>
        <ChevronDownIcon />
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
                    placeholder={intl.formatMessage({ id: 'multiSelect.search' })}
                    aria-label={intl.formatMessage({ id: 'multiSelect.search' })}
                    onChange={(event) => setSearch(event.target.value)}
                    data-testid={`${testId}-search`}
                  />
                </div>
              ) : null}
              <div className="multi-select-tools">
                <span className="muted">
                  <FormattedMessage id="multiSelect.selected" values={{ count: chosen.length, total: options.length }} />
                </span>
                <span className="multi-select-tool-buttons">
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => onChange(options.map((option) => option.value))}
                    disabled={chosen.length === options.length}
                    data-testid={`${testId}-all`}
                  >
                    <FormattedMessage id="multiSelect.selectAll" />
                  </button>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => onChange([])}
                    disabled={chosen.length === 0}
                    data-testid={`${testId}-clear`}
                  >
                    <FormattedMessage id="multiSelect.clear" />
                  </button>
                </span>
              </div>
              <ul id={listId} className="multi-select-options" aria-label={label}>
                {visible.map((option) => {
                  const checked = selected.has(option.value);
                  return (
                    <li key={option.value}>
                      <label className={checked ? 'multi-select-option checked' : 'multi-select-option'}>
                        <input
                          type="checkbox"
                          checked={checked}
                          onChange={(event) => toggle(option.value, event.target.checked)}
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
                  <li className="multi-select-empty">
                    <FormattedMessage id="multiSelect.noMatches" />
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
