import { type RefObject, useEffect } from 'react';

/**
 * Closes an open popup (a fixed-position portal under its trigger) on a pointer press outside the
 * trigger and the popup, on a window resize and on a scroll anywhere but inside the popup, where the
 * popup would otherwise part from its trigger. `setOpen` is the popup's state setter (stable).
 */
export function usePopupDismiss(
  open: boolean,
  setOpen: (open: boolean) => void,
  triggerRef: RefObject<HTMLElement | null>,
  popupRef: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    if (!open) return;
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
  }, [open, setOpen, triggerRef, popupRef]);
}
