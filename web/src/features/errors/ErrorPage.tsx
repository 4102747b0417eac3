import type { ReactNode } from 'react';

/** The common frame of the forbidden, not-found and application-error pages. */
export function ErrorPage({
  status,
  title,
  text,
  actions,
  testId,
  detail,
}: {
  status: number;
  title: ReactNode;
  text: ReactNode;
  actions: ReactNode;
  testId: string;
  detail?: ReactNode;
}) {
  return (
    <section className="error-page" data-testid={testId}>
      <div className="error-status" aria-hidden="true">
        {status}
      </div>
      <h1>{title}</h1>
      <p className="muted">{text}</p>
      {detail}
      <div className="error-actions">{actions}</div>
    </section>
  );
}
