import { type ReactNode, useEffect, useRef, useState } from 'react';
import { usePopupDismiss } from '../../components/usePopupDismiss';

/**
 * A button with a panel under it (the comparison and calculated-column popovers, the saved views
 * menu, the filter chips): closed by a press outside, Escape or the panel's own `close`.
 */
export function Popover({
  label,
  buttonClassName = 'button',
  testId,
  children,
  title,
  align = 'start',
}: {
  /** The trigger's content. */
  label: ReactNode;
  buttonClassName?: string;
  testId: string;
  /** The trigger's tooltip and the panel's accessible name. */
  title: string;
  children: (close: () => void) => ReactNode;
  /** `end`: the panel opens leftwards from the trigger's right edge (a trigger near the bar's end, whose panel would run off the page and scroll it, closing itself). */
  align?: 'start' | 'end';
}) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  usePopupDismiss(open, setOpen, buttonRef, panelRef);
  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector<HTMLElement>('input, select, button')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);
  return (
    <span className="report-popover-anchor">
      <button
        ref={buttonRef}
        type="button"
        className={buttonClassName}
        aria-expanded={open}
        title={title}
        data-testid={testId}
        onClick={() => setOpen((value) => !value)}
      >
        {label}
      </button>
      {open ? (
        <div
          ref={panelRef}
          className={align === 'end' ? 'report-popover report-popover-end' : 'report-popover'}
          role="dialog"
          aria-label={title}
          data-testid={`${testId}-panel`}
        >
          {children(() => setOpen(false))}
        </div>
      ) : null}
    </span>
  );
}
