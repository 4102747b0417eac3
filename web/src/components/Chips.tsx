import type { ReactNode } from 'react';
import './chips.css';

export interface ChipItem {
  key: string;
  label: string;
  /** Marked visually (an administrator occupation or role). */
  strong?: boolean;
}

/** A wrapping list of chips; `empty` is shown when there are none. */
export function Chips({ items, empty, testId }: { items: ChipItem[]; empty?: ReactNode; testId?: string }) {
  if (items.length === 0) {
    return (
      <span className="chips chips-empty muted" data-testid={testId} data-count={0}>
        {empty ?? '–'}
      </span>
    );
  }
  return (
    <span className="chips" data-testid={testId} data-count={items.length}>
      {items.map((item) => (
        <span key={item.key} className={item.strong ? 'chip chip-strong' : 'chip'} data-value={item.key}>
          {item.label}
        </span>
      ))}
    </span>
  );
}
