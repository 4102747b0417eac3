import { useCallback, useEffect, useRef, useState } from 'react';

/** A flag that switches itself off after `ms` (spec 1, section 8: reset/resend success shows for 10 s). */
export function useTemporaryFlag(ms: number): [boolean, () => void, () => void] {
  const [on, setOn] = useState(false);
  const timer = useRef<number | undefined>(undefined);

  const clear = useCallback(() => {
    window.clearTimeout(timer.current);
    setOn(false);
  }, []);

  const show = useCallback(() => {
    window.clearTimeout(timer.current);
    setOn(true);
    timer.current = window.setTimeout(() => setOn(false), ms);
  }, [ms]);

  useEffect(() => () => window.clearTimeout(timer.current), []);
  return [on, show, clear];
}
