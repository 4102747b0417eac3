import { type KeyboardEvent as ReactKeyboardEvent, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocale } from '../i18n/I18nProvider';
import { Icon, Stroke } from './icons';
import { type MultiSelectOption, matchingOptions, SEARCH_FROM_OPTIONS, visibleChoices } from './multi-select';

export { type MultiSelectOption, SEARCH_FROM_OPTIONS } from './multi-select';

/**
 * A select-style multi-select (a filter, for instance): a trigger that shows up to `maxShown` of the
 * chosen values and "+n", and a popup with a checkbox per option; from SEARCH_FROM_OPTIONS options on
 * the popup has a search box. The popup is rendered in a portal so that a grid or a modal does not
 * clip it.
 *
 * Test ids: the trigger `testId`, the popup `${testId}-popup`, its search `${testId}-search`, each
 * option's label `${testId}-option` (with `data-value`) and the clear button `${testId}-clear`.
 */
export function MultiSelect({
  options,
  value,
  onChange,
  placeholder,
  label,
  testId,
  maxShown = 3,
  disabled = false,
  id,
}: {
  options: readonly MultiSelectOption[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  /** Shown on the closed control when nothing is chosen. */
  placeholder: string;
  /** Accessible name of the trigger and the popup. */
  label: string;
  testId: string;
  /** How many chosen values the closed control shows before "+n" (spec 2, section 9: 3 in a filter). */
  maxShown?: number;
  disabled?: boolean;
  id?: string;
}) {
  const intl = useIntl();
  const { locale } = useLocale();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [position, setPosition] = useState<{ top: number; left: number; width: number; maxHeight: number } | null>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const popupRef = useRef<HTMLDivElement>(null);

  const selected = useMemo(() => new Set(value), [value]);
  const chosen = useMemo(() => options.filter((option) => selected.has(option.value)), [options, selected]);
  const showSearch = options.length >= SEARCH_FROM_OPTIONS;
  const visible = useMemo(() => matchingOptions(options, showSearch ? search : '', locale), [options, search, showSearch, locale]);
  const { shown, more } = visibleChoices(chosen, maxShown);

  useLayoutEffect(() => {
    if (!open || !triggerRef.current) return;
    const rect = triggerRef.current.getBoundingClientRect();
    const width = Math.max(rect.width, 260);
    const below = window.innerHeight - rect.bottom - 16;
    const above = rect.top - 16;
    const maxHeight = Math.max(200, Math.min(380, Math.max(below, above)));
    const top = below >= Math.min(maxHeight, 260) || below >= above ? rect.bottom + 4 : Math.max(8, rect.top - 4 - maxHeight);
    setPosition({ top, left: Math.max(8, Math.min(rect.left, window.innerWidth - width - 8)), width, maxHeight });
  }, [open]);

  useEffect(() => {
    if (!open) {
      setSearch('');
      return;
    }
    popupRef.current?.querySelector<HTMLElement>('input[type="search"], input[type="checkbox"]')?.focus();
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

  const toggle = (optionValue: string, checked: boolean) => {
    const next = checked ? [...value.filter((item) => item !== optionValue), optionValue] : value.filter((item) => item !== optionValue);
    // The options' order, so that equal selections compare equal.
    const order = new Map(options.map((option, index) => [option.value, index]));
    onChange(next.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0)));
  };

  const closeAndFocus = () => {
    setOpen(false);
    triggerRef.current?.focus();
  };

  const onPopupKeyDown = (event: ReactKeyboardEvent) => {
    if (event.key === 'Escape') {
      // Only the popup closes; a modal around it stays.
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

  return (
    <>
      <button
        ref={triggerRef}
        id={id}
        type="button"
        className="ms-trigger"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-label={label}
        disabled={disabled}
        title={chosen.length > 0 ? chosen.map((option) => option.label).join(', ') : undefined}
        onClick={() => setOpen((current) => !current)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
        data-testid={testId}
        data-count={chosen.length}
      >
        <span className="ms-values">
          {chosen.length === 0 ? <span className="ms-placeholder">{placeholder}</span> : null}
          {shown.map((option) => (
            <span key={option.value} className="ms-chip" data-testid={`${testId}-chip`} data-value={option.value}>
              {option.label}
            </span>
          ))}
          {more > 0 ? (
            <span className="ms-chip ms-chip-more" data-testid={`${testId}-more`}>
              <FormattedMessage id="components.multiSelect.more" values={{ count: more }} />
            </span>
          ) : null}
        </span>
        <ChevronDown />
      </button>
      {open && position
        ? createPortal(
            <div
              ref={popupRef}
              className="ms-popup"
              role="dialog"
              aria-label={label}
              style={{ top: position.top, left: position.left, width: position.width, maxHeight: position.maxHeight }}
              onKeyDown={onPopupKeyDown}
              data-testid={`${testId}-popup`}
            >
              {showSearch ? (
                <div className="ms-search">
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
              <div className="ms-tools">
                <span className="muted">
                  <FormattedMessage id="components.multiSelect.selected" values={{ count: chosen.length, total: options.length }} />
                </span>
                <button type="button" className="ms-clear" onClick={() => onChange([])} disabled={chosen.length === 0} data-testid={`${testId}-clear`}>
                  <FormattedMessage id="components.multiSelect.clear" />
                </button>
              </div>
              <ul id={listId} className="ms-options" aria-label={label}>
                {visible.map((option) => {
                  const checked = selected.has(option.value);
                  return (
                    <li key={option.value}>
                      <label className={checked ? 'ms-option checked' : 'ms-option'} data-testid={`${testId}-option`} data-value={option.value}>
                        <input type="checkbox" checked={checked} onChange={(event) => toggle(option.value, event.target.checked)} />
                        <span className="ms-label">{option.label}</span>
                      </label>
                    </li>
                  );
                })}
                {visible.length === 0 ? (
                  <li className="ms-empty" data-testid={`${testId}-empty`}>
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

function ChevronDown() {
  return (
    <Icon size={14} className="ms-chevron">
      <Stroke d="M4 6l4 4 4-4" width={1.6} cap join />
    </Icon>
  );
}
