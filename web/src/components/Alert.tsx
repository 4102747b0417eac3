import type { ReactNode } from 'react';

export type AlertKind = 'error' | 'warning' | 'info' | 'success';

export function Alert({ kind, title, children, testId }: { kind: AlertKind; title?: ReactNode; children?: ReactNode; testId?: string }) {
  return (
    <div className={`alert alert-${kind}`} role={kind === 'error' || kind === 'warning' ? 'alert' : 'status'} data-testid={testId}>
      {title ? <div className="alert-title">{title}</div> : null}
      {children ? <div className="alert-text">{children}</div> : null}
    </div>
  );
}
