import { useCallback, useState } from 'react';

/**
 * Open/close state of a list screen's add/edit modal: closed, open to add (`item` null) or open
 * to edit `item`.
 */
export function useCrudModal<T>() {
  const [state, setState] = useState<{ item: T | null } | null>(null);
  const openAdd = useCallback(() => setState({ item: null }), []);
  const openEdit = useCallback((item: T) => setState({ item }), []);
  const close = useCallback(() => setState(null), []);
  return { isOpen: state !== null, item: state?.item ?? null, openAdd, openEdit, close };
}
