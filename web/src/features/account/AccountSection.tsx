import type { ReactNode } from 'react';

/** A card of the account settings page. */
export function AccountSection({
  title,
  description,
  status,
  children,
  testId,
}: {
  title: ReactNode;
  description?: ReactNode;
  /** A badge next to the title (on/off, bound/unbound). */
  status?: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  return (
    <section className="card account-section" data-testid={testId}>
      <header className="account-section-header">
        <div>
          <h2 className="card-title account-section-title">{title}</h2>
          {description ? <p className="muted account-section-description">{description}</p> : null}
        </div>
        {status}
      </header>
      {children}
    </section>
  );
}

/** An on/off style badge. */
export function StatusBadge({ on, children, testId }: { on: boolean; children: ReactNode; testId?: string }) {
  return (
    <span className={on ? 'status-badge status-on' : 'status-badge status-off'} data-testid={testId} data-on={on}>
      {children}
    </span>
  );
}
