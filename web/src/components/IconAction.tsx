import type { ReactNode } from 'react';

/**
 * An icon button with a tooltip. A disabled button receives no pointer events, so the tooltip
 * (why it is disabled) sits on a wrapper.
 */
export function IconAction({
  label,
  title,
  disabled = false,
  danger = false,
  onClick,
  testId,
  children,
}: {
  label: string;
  /** The tooltip; defaults to the label. */
  title?: string;
  disabled?: boolean;
  danger?: boolean;
  onClick: () => void;
  testId: string;
  children: ReactNode;
}) {
  return (
    <span className="icon-action" title={title ?? label} data-testid={`${testId}-tooltip`}>
      <button
        type="button"
        className={danger ? 'icon-button icon-button-danger' : 'icon-button'}
        aria-label={label}
        disabled={disabled}
        onClick={onClick}
        data-testid={testId}
      >
        {children}
      </button>
    </span>
  );
}
