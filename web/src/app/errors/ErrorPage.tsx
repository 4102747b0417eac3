import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router';
import type { MessageKey } from '../../i18n/messages';

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

/** A client-side error page (403, 404): the status, the page's title and text, and the way home. */
export function HomeErrorPage({ status, messages, testId }: { status: number; messages: { title: MessageKey; text: MessageKey }; testId: string }) {
  return (
    <ErrorPage
      status={status}
      testId={testId}
      title={<FormattedMessage id={messages.title} />}
      text={<FormattedMessage id={messages.text} />}
      actions={
        <Link to="/" className="button button-primary" data-testid="home-button">
          <FormattedMessage id="errors.home" />
        </Link>
      }
    />
  );
}
