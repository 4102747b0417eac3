import { FormattedMessage } from 'react-intl';
import type { MessageKey } from '../i18n/messages';

/** The heading of a sign-in page: its title and a line that says what to do. */
export function AuthHeading({ titleId, descriptionId }: { titleId: MessageKey; descriptionId: MessageKey }) {
  return (
    <div>
      <h1 className="login-title">
        <FormattedMessage id={titleId} />
      </h1>
      <p className="muted">
        <FormattedMessage id={descriptionId} />
      </p>
    </div>
  );
}
