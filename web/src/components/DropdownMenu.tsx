import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { usePopupDismiss } from './usePopupDismiss';

export interface DropdownItem {
  key: string;
  label: ReactNode;
  onSelect: () => void;
  danger?: boolean;
  testId?: string;
}

/**
 * A small button-triggered menu. The list is rendered in a portal with fixed positioning so that
 * it is not clipped by a grid cell.
 */
export function DropdownMenu({
  label,
  items,
  testId,
  children,
}: {
  /** Accessible name of the trigger button. */
  label: string;
  items: DropdownItem[];
  testId?: string;
  /** The trigger's visible content (an icon). */
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    if (!open || !buttonRef.current) return;
    const rect = buttonRef.current.getBoundingClientRect();
    const menuWidth = 180;
    setPosition({ top: rect.bottom + 4, left: Math.max(8, rect.right - menuWidth) });
  }, [open]);

  usePopupDismiss(open, setOpen, buttonRef, menuRef);
  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLButtonElement>('button')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="icon-button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid={testId}
        onClick={() => setOpen((value) => !value)}
      >
        {children}
      </button>
      {open && position
        ? createPortal(
            <div ref={menuRef} className="dropdown-menu" role="menu" style={{ top: position.top, left: position.left }}>
              {items.map((item) => (
                <button
                  key={item.key}
                  type="button"
                  role="menuitem"
                  className={item.danger ? 'dropdown-item dropdown-item-danger' : 'dropdown-item'}
                  data-testid={item.testId}
                  onClick={() => {
                    setOpen(false);
                    item.onSelect();
                  }}
                >
                  {item.label}
                </button>
              ))}
            </div>,
            document.body,
          )
        : null}
    </>
  );
}
